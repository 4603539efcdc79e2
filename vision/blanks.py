"""Face-down tiles and blank white dragons told apart by colour.

A white dragon is often a blank face (with a frame or none), and a face-down tile a plain field of the
set's back colour: the shapes alike, the detector and readers mistake one for the other. Their colour
settles it: a blank face has the colour of the set's faces, a back the colour of its backs. The faces'
colour is the median over the tiles read surely as faces; a tile read as either that lies close to it is a
white dragon, one far from it is face down. Where a set's backs have its faces' colour (white backs), the
colour cannot tell: such a set's face-down tiles are read as white dragons (sets with ivory or white backs
are rare; `LIGHT_FACES`). Where tiles read face down are far from the faces' colour, they give the backs' colour
too: a tile read face down that is much nearer the faces' colour than the backs' is a white dragon though the
lighting (a face in the shade, a tile seen at a slant) took it past `NEAR`.
"""

from __future__ import annotations

import cv2
import numpy as np

from scoring.tiles import BACK, tile
from vision.detections import TileDetections

WHITE_DRAGON = tile("P")
INSET = 0.25  # of a box's width and height left out on each side: the middle of a tile, not its rim or the table
LIGHTEST = 75  # percentile of lightness over which a middle's pixels give its colour
SURE_FACE = 0.5  # faces read at least this surely give the set's face colour
NEAR = 22.0  # Lab distance under which a tile has the faces' colour (lighting varies a face's by ~10)
FAR = 40.0  # ... over which it has another (a back's colour differs from ivory by 50 and more)
LIGHT_FACES = 150.0  # Lab lightness (0-255) of the faces over which they are ivory or white: a set's backs are coloured
MIN_FACES = 3  # surely read faces needed to know the faces' colour
NEARER = 3.0  # times nearer the faces' colour than the backs' a tile read face down is a white dragon at any distance


def middle_colours(image: np.ndarray, xyxy: np.ndarray) -> np.ndarray:
    """The Lab colour of each box's middle (n x 3), its lightest quarter: a face's ground, not its drawing
    (a back or a blank face is one colour throughout); NaN where the middle is empty."""
    height, width = image.shape[:2]
    out = np.full((len(xyxy), 3), np.nan, np.float32)
    for k, (x0, y0, x1, y1) in enumerate(xyxy):
        dx, dy = INSET * (x1 - x0), INSET * (y1 - y0)
        a, b = int(max(x0 + dx, 0)), int(min(x1 - dx, width))
        c, d = int(max(y0 + dy, 0)), int(min(y1 - dy, height))
        if b > a and d > c:  # only the middles are converted: a scan settles a photo's blanks once or twice
            pixels = cv2.cvtColor(image[c:d, a:b], cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float32)
            out[k] = pixels[pixels[:, 0] >= np.percentile(pixels[:, 0], LIGHTEST)].mean(axis=0)
    return out


def settle_blanks(image: np.ndarray, detections: TileDetections) -> TileDetections:
    """The detections with each tile read face down but coloured as the (ivory or white) faces read as a
    white dragon, its first reading the runner-up (faces of another colour, a dark photo, tell nothing). A
    white dragon far from the faces' colour gets
    face down as an equally likely runner-up: the layout takes a runner-up where the hand as read is no win."""
    faces = detections.class_id
    asked = np.flatnonzero((faces == BACK.index) | (faces == WHITE_DRAGON.index))
    sure = np.flatnonzero((faces != BACK.index) & (faces != WHITE_DRAGON.index) & (detections.confidence >= SURE_FACE))
    if not len(asked) or len(sure) < MIN_FACES:
        return detections
    colours = middle_colours(image, detections.xyxy[np.concatenate([asked, sure])])
    face_colour = np.nanmedian(colours[len(asked):], axis=0)
    distance = np.linalg.norm(colours[:len(asked)] - face_colour, axis=1)
    light = bool(face_colour[0] >= LIGHT_FACES)  # else the faces' colour is not known to differ from a back's
    backs = faces[asked] == BACK.index
    near = distance < NEAR
    far_backs = backs & (distance > FAR)
    if far_backs.any():  # the backs' colour is known, and known to differ from the faces'
        back_colour = np.nanmedian(colours[:len(asked)][far_backs], axis=0)
        near |= NEARER * distance < np.linalg.norm(colours[:len(asked)] - back_colour, axis=1)
    near_backs = asked[backs & near] if light else asked[:0]
    far_dragons = asked[(faces[asked] == WHITE_DRAGON.index) & (distance > FAR)]
    if not len(near_backs) and not len(far_dragons):
        return detections
    class_id, confidence = faces.copy(), detections.confidence.copy()
    runner_up, runner_up_confidence = detections.runner_up.copy(), detections.runner_up_confidence.copy()
    for rows, face, swap in ((near_backs, WHITE_DRAGON.index, True), (far_dragons, BACK.index, False)):
        runner_up[rows], runner_up_confidence[rows] = face, confidence[rows]
        if swap:
            runner_up[rows], class_id[rows] = class_id[rows], face
    return TileDetections(detections.xyxy, confidence, class_id, runner_up, runner_up_confidence)
