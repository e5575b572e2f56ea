"""Compares the bytes of the .mts files of two directories, file by file.

usage: compare.py EXPECTED_DIR ACTUAL_DIR

Both directories must hold the same .mts files, byte for byte identical. Every file is
deterministic: metatensor-core 0.2.6 writes the gradients of a block sorted by parameter name
(src/io/block.rs, `parameters.sort_unstable()`), not in hash-map order. A difference is
described by its first differing byte and the zip entry holding it, and, when the two zips
hold the same entries (local headers, data and central records alike) in another order, by
saying so.

Prints one PASS or FAIL line per file and a summary; exits with 1 on any difference.
"""

import os
import struct
import sys


def is_zip(data):
    return data[:4] == b"PK\x03\x04"


def zip_entries(data):
    """name -> (local header and data, central record without the local header offset),
    in file order, and the end of central directory record. Assumes no archive comment."""
    end = data.rfind(b"PK\x05\x06")
    if end < 0:
        raise ValueError("no end of central directory record")
    count, _, directory = struct.unpack_from("<HII", data, end + 10)
    entries = {}
    position = directory
    for _ in range(count):
        if data[position:position + 4] != b"PK\x01\x02":
            raise ValueError(f"no central directory record at {position}")
        compressed, = struct.unpack_from("<I", data, position + 20)
        name_length, extra_length, comment_length = struct.unpack_from("<HHH", data, position + 28)
        offset, = struct.unpack_from("<I", data, position + 42)
        size = 46 + name_length + extra_length + comment_length
        record = data[position:position + size]
        name = record[46:46 + name_length].decode("utf8")

        local_name, local_extra = struct.unpack_from("<HH", data, offset + 26)
        local_extra_data = data[offset + 30 + local_name:offset + 30 + local_name + local_extra]
        if compressed == 0xFFFFFFFF:
            # the real size is in the zip64 extra field of the local header
            compressed = zip64_compressed_size(local_extra_data)
        local = data[offset:offset + 30 + local_name + local_extra + compressed]

        entries[name] = (local, record[:42] + b"\0\0\0\0" + record[46:])
        position += size
    return entries, data[end:]


def zip64_compressed_size(extra):
    position = 0
    while position + 4 <= len(extra):
        tag, size = struct.unpack_from("<HH", extra, position)
        if tag == 0x0001:
            return struct.unpack_from("<Q", extra, position + 12)[0]
        position += 4 + size
    raise ValueError("compressed size 0xFFFFFFFF without zip64 extra field")


def describe_difference(expected, actual):
    """Where two files first differ, with the zip entry holding that byte."""
    length = min(len(expected), len(actual))
    offset = next((i for i in range(length) if expected[i] != actual[i]), length)
    where = ""
    if is_zip(expected):
        try:
            entries, _ = zip_entries(expected)
            position = 0
            for name, (local, _) in entries.items():
                start = expected.find(local, position)
                if start <= offset < start + len(local):
                    where = f", in entry '{name}' of the expected file"
                    break
                position = start + len(local)
            else:
                where = ", in the central directory of the expected file"
        except ValueError:
            pass
    sizes = f"{len(actual)} bytes, expected {len(expected)}"
    return f"{sizes}; first difference at byte {offset}{where}"


def compare(expected, actual):
    """None when identical, else what differs."""
    if expected == actual:
        return None
    difference = describe_difference(expected, actual)
    if is_zip(expected) and is_zip(actual):
        expected_entries, expected_end = zip_entries(expected)
        actual_entries, actual_end = zip_entries(actual)
        if (
            list(expected_entries) != list(actual_entries)
            and expected_entries == actual_entries
            and expected_end == actual_end
        ):
            difference += (
                " (the same entries in another order: the reference writes the gradients"
                " of a block sorted by parameter name)"
            )
    return difference


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    expected_dir, actual_dir = sys.argv[1:]
    expected_files = sorted(f for f in os.listdir(expected_dir) if f.endswith(".mts"))
    actual_files = sorted(f for f in os.listdir(actual_dir) if f.endswith(".mts"))

    failures = 0
    for filename in sorted(set(expected_files) | set(actual_files)):
        if filename not in actual_files:
            print(f"FAIL {filename}: missing in {actual_dir}")
            failures += 1
            continue
        if filename not in expected_files:
            print(f"FAIL {filename}: not in {expected_dir}")
            failures += 1
            continue
        with open(os.path.join(expected_dir, filename), "rb") as file:
            expected = file.read()
        with open(os.path.join(actual_dir, filename), "rb") as file:
            actual = file.read()
        try:
            difference = compare(expected, actual)
        except (ValueError, struct.error) as error:
            difference = f"unreadable zip: {error}"
        if difference is None:
            print(f"PASS {filename}: identical ({len(expected)} bytes)")
        else:
            print(f"FAIL {filename}: {difference}")
            failures += 1

    total = len(set(expected_files) | set(actual_files))
    print(f"compare {actual_dir} with {expected_dir}: {total} files, "
          f"{total - failures} identical, {failures} different")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
