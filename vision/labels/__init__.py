"""Label files of tile photos: the formats `mcr label` writes and `mcr eval` reads (YOLO, COCO, Label Studio),
and the batch labeller that runs a detector over a folder of photos (`vision.labels.batch`)."""
