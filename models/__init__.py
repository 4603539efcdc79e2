"""The shipped detector (ONNX + model card) and the recipe that trains it."""
