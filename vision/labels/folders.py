"""Folders on any filesystem that ``pyarrow.fs`` or fsspec opens (a local path, ``s3://``, ``gs://``, ...): where
the Ray engine (`vision.labels.cluster`) reads photos and writes labels. Needs pyarrow (the ``cluster`` extra).

Writes are whole-or-nothing on both kinds of store: a local file goes through a temporary file and a rename
(`vision.labels.batch.write_local`); an object store makes an object visible only when its upload completes.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import pyarrow as pa
import pyarrow.fs as pafs

from vision.labels.batch import write_local


@dataclass(frozen=True)
class Folder:
    """One folder: its ``uri`` as the user gave it (a local path made absolute, since workers run elsewhere),
    the filesystem holding it and its ``root`` path on that filesystem."""

    uri: str
    fs: pafs.FileSystem
    root: str

    @classmethod
    def open(cls, uri: str) -> Folder:
        """The folder at ``uri``; a URI scheme pyarrow has no filesystem for is tried through fsspec."""
        if "://" not in uri:
            uri = str(Path(uri).resolve())
        try:
            fs, root = pafs.FileSystem.from_uri(uri)
        except pa.ArrowInvalid:
            import fsspec.core

            try:
                spec, root = fsspec.core.url_to_fs(uri)
            except (ImportError, ValueError) as exc:
                raise ValueError(f"{uri}: no filesystem opens it ({exc})") from None
            fs = pafs.PyFileSystem(pafs.FSSpecHandler(spec))
        return cls(uri, fs, root.rstrip("/"))

    @property
    def local(self) -> bool:
        return isinstance(self.fs, pafs.LocalFileSystem)

    def path(self, name: str) -> str:
        """A file's path on the filesystem, from its name relative to the folder."""
        return f"{self.root}/{name}"

    def name_of(self, path: str) -> str:
        """A file's name relative to the folder, from its path on the filesystem."""
        return path.removeprefix(self.root + "/")

    def exists(self) -> bool:
        return self.fs.get_file_info(self.root).type == pafs.FileType.Directory

    def _holds(self, other: Folder) -> bool:
        return type(self.fs) is type(other.fs) and (other.root + "/").startswith(self.root + "/")

    def files(self, exclude: Folder | None = None) -> list[str]:
        """Every file under the folder (recursive), by relative name; none under ``exclude``."""
        skip = exclude.root + "/" if exclude is not None and self._holds(exclude) else None
        infos = self.fs.get_file_info(pafs.FileSelector(self.root, recursive=True))
        return [self.name_of(i.path) for i in infos
                if i.type == pafs.FileType.File and (skip is None or not i.path.startswith(skip))]

    def same_as(self, other: Folder) -> bool:
        return self._holds(other) and other._holds(self)

    def relative_from(self, other: Folder) -> str:
        """How a file in ``other`` names this folder: a relative path where both are local, else the URI without
        what it may carry beside the place (credentials, options)."""
        if self.local:
            return Path(os.path.relpath(self.root, other.root)).as_posix() if other.local else self.root
        return f"{urlsplit(self.uri).scheme}://{self.root}"

    def read_bytes(self, name: str) -> bytes:
        """A file's bytes (``FileNotFoundError`` if there is no such file)."""
        with self.fs.open_input_stream(self.path(name)) as stream:
            return stream.read()

    def read_text(self, name: str) -> str | None:
        """A file's text, or None if there is no such file."""
        try:
            return self.read_bytes(name).decode("utf-8")
        except FileNotFoundError:
            return None

    def write_text(self, name: str, text: str) -> None:
        """Write a file whole or not at all (see the module's docstring); a local file that already holds
        ``text`` is left untouched, as the local engine leaves it."""
        if self.local:
            write_local(Path(self.root), name, text)
            return
        with self.fs.open_output_stream(self.path(name)) as stream:
            stream.write(text.encode("utf-8"))

    def remove_stale(self) -> None:
        """Temporary files left by a local run killed mid-write (never read; object stores leave none)."""
        if self.local and self.exists():
            for name in self.files():
                if Path(name).name.startswith(".") and name.endswith(".tmp"):
                    self.fs.delete_file(self.path(name))
