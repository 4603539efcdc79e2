"""What a labelling run found, for the person who reviews it: counts, tiles per class and the doubtful
images first.

An image is doubtful when its reading cannot be right or may well be wrong: more copies of a face than
a set holds (4 of each playable face, 1 of each flower or season; face-down tiles are not counted),
tiles below `LOW_CONFIDENCE`, or no tile at all. Impossible counts are listed first, then the rest by
their weakest tile.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from scoring.tiles import BACK, COPIES_PER_FACE, TILES
from vision.labels.records import ImageRecord

LOW_CONFIDENCE = 0.5


@dataclass(frozen=True)
class Failure:
    """A photo that could not be labelled, and why."""

    path: str
    error: str


def impossible_counts(record: ImageRecord) -> list[str]:
    """Faces read more often than an MCR set holds them, as ``"5x1m"``."""
    counts = Counter(record.detections.tiles)
    return [
        f"{n}x{t.code}" for t, n in sorted(counts.items(), key=lambda item: item[0].index)
        if t != BACK and n > (1 if t.is_bonus else COPIES_PER_FACE)
    ]


def doubts(record: ImageRecord) -> list[str]:
    """Why this image's reading needs a person's eye first; empty if nothing looks wrong."""
    confidence = record.detections.confidence
    if not len(confidence):
        return ["no tiles found"]
    reasons = []
    over = impossible_counts(record)
    if over:
        reasons.append("more copies than a set holds: " + ", ".join(over))
    low = int((confidence < LOW_CONFIDENCE).sum())
    if low:
        reasons.append(f"{low} tile(s) below {LOW_CONFIDENCE} confidence (lowest {confidence.min():.2f})")
    return reasons


def _review_order(record: ImageRecord) -> tuple[bool, float]:
    confidence = record.detections.confidence
    return (not impossible_counts(record), float(confidence.min()) if len(confidence) else 1.0)


def summarise(
    records: list[ImageRecord], failures: list[Failure], reused: int, other_files: int, seconds: float
) -> dict[str, Any]:
    """The run's summary: image counts, speed, tiles per class (model order), doubtful images first."""
    per_class = Counter(code for r in records for code in (t.code for t in r.detections.tiles))
    labelled = len(records) - reused
    doubtful = sorted((r for r in records if doubts(r)), key=_review_order)
    return {
        "images": len(records) + len(failures),
        "labelled": labelled,
        "skipped": reused,
        "failed": len(failures),
        "other_files": other_files,
        "seconds": round(seconds, 2),
        "images_per_second": round((labelled + len(failures)) / seconds, 2) if seconds > 0 else None,
        "tiles": sum(per_class.values()),
        "tiles_per_class": {t.code: per_class[t.code] for t in TILES if per_class[t.code]},
        "doubtful": [{"image": r.path, "reasons": doubts(r)} for r in doubtful],
        "failures": [{"image": f.path, "error": f.error} for f in failures],
    }


def summary_text(summary: dict[str, Any], limit: int = 10) -> str:
    """A few readable lines: the counts, the speed, then the first doubtful images and the failures."""
    rate = summary["images_per_second"]
    lines = [
        f"{summary['images']} images: {summary['labelled']} labelled, {summary['skipped']} already done, "
        f"{summary['failed']} failed"
        + (f", {summary['other_files']} other files ignored" if summary["other_files"] else "")
        + (f" ({rate} images/s)" if rate else ""),
        f"{summary['tiles']} tiles in {len(summary['tiles_per_class'])} classes; "
        f"{len(summary['doubtful'])} doubtful images",
    ]
    lines += [f"  review: {d['image']}: {'; '.join(d['reasons'])}" for d in summary["doubtful"][:limit]]
    if len(summary["doubtful"]) > limit:
        lines.append(f"  ... and {len(summary['doubtful']) - limit} more in summary.json")
    lines += [f"  failed: {f['image']}: {f['error']}" for f in summary["failures"][:limit]]
    if len(summary["failures"]) > limit:
        lines.append(f"  ... and {len(summary['failures']) - limit} more failures in summary.json")
    return "\n".join(lines)
