"""Loads every .mts file of SRC_DIR and saves it again into DST_DIR, with the loaded library
(see mtslib.py), without knowing what the files hold.

usage: resave.py SRC_DIR DST_DIR

The kind of a file comes from its content: a bare NPY file holds Labels, a zip with keys.npy a
TensorMap, any other zip a TensorBlock. Files are loaded and saved through the path API,
keeping their names. Exits with 1 when a file can not be loaded or saved.
"""

import os
import sys
import zipfile

import mtslib

metatensor, library = mtslib.import_metatensor()


def kind(path):
    with open(path, "rb") as file:
        if file.read(6) == b"\x93NUMPY":
            return "labels"
    with zipfile.ZipFile(path) as archive:
        return "tensor" if "keys.npy" in archive.namelist() else "block"


LOAD = {
    "tensor": metatensor.load,
    "block": metatensor.load_block,
    "labels": metatensor.load_labels,
}


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    source_dir, destination_dir = sys.argv[1:]
    os.makedirs(destination_dir, exist_ok=True)
    failures = 0
    files = sorted(f for f in os.listdir(source_dir) if f.endswith(".mts"))
    for filename in files:
        source = os.path.join(source_dir, filename)
        try:
            loaded = LOAD[kind(source)](source)
            metatensor.save(os.path.join(destination_dir, filename), loaded)
        except Exception as error:  # noqa: BLE001, one file must not stop the others
            print(f"FAIL {filename}: {type(error).__name__}: {error}")
            failures += 1
    print(f"resaved {len(files) - failures} of {len(files)} files of {source_dir} into "
          f"{destination_dir} with the {library}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
