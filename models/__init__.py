"""The shipped models and the workbench that makes and measures them.

This folder's top holds what ships: the ONNX models (the wheel carries them, `vision.weights` finds them), their
card (MODEL_CARD.md), the recipe of each (``recipe-*.json``) and the held-out photo list. `models.training` trains
and exports them (`mcr train`); `models.measure` holds the measuring programs behind the published figures
(``python -m models.measure.<name>``). Neither is part of the runtime or the wheel.
"""
