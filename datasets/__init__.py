"""Training data: synthetic scene generation and dataset formats (YOLO, COCO, Label Studio)."""
