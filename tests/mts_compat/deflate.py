"""Writes DEFLATE-compressed copies of the zip files of SRC_DIR into DST_DIR.

usage: deflate.py SRC_DIR DST_DIR

Every .mts zip (TensorMap or TensorBlock) is rewritten by Python's zipfile with the same
entries in the same order, compressed with ZIP_DEFLATED (method 8). The .buffer.mts files go
through a stream that cannot seek, so zipfile follows each entry with a data descriptor
(flag bit 3) instead of patching its local header. Bare NPY files (Labels) are copied as
they are, so that both directories hold the same files.
"""

import io
import os
import shutil
import sys
import zipfile


class Unseekable(io.RawIOBase):
    """A write-only stream without seek nor tell."""

    def __init__(self, file):
        self.file = file

    def writable(self):
        return True

    def write(self, data):
        return self.file.write(data)


def recompress(source, destination, streaming):
    with zipfile.ZipFile(source) as archive, open(destination, "wb") as file:
        target = Unseekable(file) if streaming else file
        with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as output:
            for info in archive.infolist():
                output.writestr(info.filename, archive.read(info))

    with zipfile.ZipFile(destination) as archive:
        for info in archive.infolist():
            assert info.compress_type == zipfile.ZIP_DEFLATED, info
            assert bool(info.flag_bits & 0x08) == streaming, info


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    source_dir, destination_dir = sys.argv[1:]
    os.makedirs(destination_dir, exist_ok=True)
    count = 0
    for filename in sorted(os.listdir(source_dir)):
        source = os.path.join(source_dir, filename)
        destination = os.path.join(destination_dir, filename)
        if not filename.endswith(".mts"):
            continue
        with open(source, "rb") as file:
            is_zip = file.read(4) == b"PK\x03\x04"
        if is_zip:
            recompress(source, destination, streaming=filename.endswith(".buffer.mts"))
            count += 1
        else:
            shutil.copyfile(source, destination)
    print(f"wrote DEFLATE copies of the {count} zips of {source_dir} into {destination_dir}")


if __name__ == "__main__":
    main()
