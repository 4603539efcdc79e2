"""Photo → tiles → hand: the ONNX detector, its typed detections and the layout grouping."""
