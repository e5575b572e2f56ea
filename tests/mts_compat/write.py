"""Saves every fixture into OUTDIR through the loaded library (see mtslib.py).

usage: write.py OUTDIR

Each fixture goes to OUTDIR/<name>.mts through metatensor.save (mts_*_save); the fixtures of
fixtures.BUFFER_FIXTURES also go to OUTDIR/<name>.buffer.mts through metatensor.io.save_buffer
(mts_*_save_buffer).
"""

import os
import sys

import mtslib

metatensor, library = mtslib.import_metatensor()

import fixtures  # noqa: E402


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)

    objects = fixtures.build(metatensor)
    for name, obj in objects.items():
        metatensor.save(os.path.join(outdir, f"{name}.mts"), obj)
    for name in fixtures.BUFFER_FIXTURES:
        buffer = metatensor.io.save_buffer(objects[name])
        with open(os.path.join(outdir, f"{name}.buffer.mts"), "wb") as file:
            file.write(bytes(buffer))

    count = len(objects) + len(fixtures.BUFFER_FIXTURES)
    print(f"wrote {count} files into {outdir} with the {library}")


if __name__ == "__main__":
    main()
