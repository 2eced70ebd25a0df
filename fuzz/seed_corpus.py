#!/usr/bin/env python3
"""Writes the seed corpus of every fuzz target from testdata/.

Usage: seed_corpus.py TESTDATA_DIR OUT_DIR

Each target gets OUT_DIR/<target>/seed-<n>: the texts of the vector files
for the decoders (valid and invalid ones), pairs of vector values for the
round trip, vector streams for Nano ID, and the monotonic scenarios written
as scripts of fuzz/generators.c. The vectors' format is testdata/README.md.
"""
import os
import re
import sys


def rows(testdata, name):
    """The rows of one vector file as dicts keyed by the header's columns."""
    with open(os.path.join(testdata, name), encoding="utf-8") as f:
        lines = f.read().split("\n")
    header = lines[0][1:].split()
    out = []
    for line in lines[1:]:
        if line == "" or line.startswith("#"):
            continue
        out.append(dict(zip(header, line.split("\t"))))
    if not out:
        sys.exit("seed_corpus: no vectors in " + name)
    return out


def unescape(text):
    """The hand-kept invalid lists' escapes: \\xHH, \\t, \\s, \\\\."""
    singles = {"t": b"\t", "s": b" ", "\\": b"\\"}
    parts = re.split(r"\\(x[0-9a-fA-F]{2}|[ts\\])", text)
    out = b""
    for i, part in enumerate(parts):
        if i % 2 == 0:
            out += part.encode("utf-8")
        elif part[0] == "x":
            out += bytes([int(part[1:], 16)])
        else:
            out += singles[part]
    return out


def hexbytes(h):
    return b"" if h == "-" else bytes.fromhex(h)


def be(value, n):
    return (value % (1 << (8 * n))).to_bytes(n, "big")


def decoders(t):
    ulid = [r["text"] for r in rows(t, "ulid.txt")]
    ulid += [r["expect"] for r in rows(t, "ulid_monotonic.txt") if not r["expect"].startswith("error:")]
    uuid = [r[c] for r in rows(t, "uuid.txt") for c in ("input", "canonical")]
    uuid += [r["text"] for f in ("uuid4.txt", "uuid7.txt") for r in rows(t, f)]
    uuid += [r["expect"] for r in rows(t, "uuid7_monotonic.txt") if not r["expect"].startswith("error:")]
    relative = [r["text"] for r in rows(t, "relative.txt")]
    relative += [r["expect"] for r in rows(t, "relative_monotonic.txt") if not r["expect"].startswith("error:")]
    relative += [s.replace("-", "") for s in relative[:8]]
    snowflake = [r["id"] for r in rows(t, "snowflake.txt")]
    snowflake += [r["expect"] for r in rows(t, "snowflake_sequence.txt") if not r["expect"].startswith("error:")]
    return {
        "ulid_decode": [s.encode() for s in ulid] + [unescape(r["input"]) for r in rows(t, "ulid_invalid.txt")],
        "uuid_decode": [s.encode() for s in uuid] + [unescape(r["input"]) for r in rows(t, "uuid_invalid.txt")],
        "relative_decode": [s.encode() for s in relative]
        + [unescape(r["input"]) for r in rows(t, "relative_invalid.txt")],
        "snowflake_decode": [s.encode() for s in snowflake],
        "ksuid_decode": [r["text"].encode() for r in rows(t, "ksuid.txt")]
        + [r["expect"].encode() for r in rows(t, "ksuid_monotonic.txt") if not r["expect"].startswith("error:")]
        + [unescape(r["input"]) for r in rows(t, "ksuid_invalid.txt")],
        "objectid_decode": [r[c].encode() for r in rows(t, "objectid.txt") for c in ("text", "bytes_hex")]
        + [r["expect"].encode() for r in rows(t, "objectid_sequence.txt") if not r["expect"].startswith("error:")]
        + [unescape(r["input"]) for r in rows(t, "objectid_invalid.txt")],
        "xid_decode": [r["text"].encode() for r in rows(t, "xid.txt")]
        + [r["expect"].encode() for r in rows(t, "xid_sequence.txt") if not r["expect"].startswith("error:")]
        + [unescape(r["input"]) for r in rows(t, "xid_invalid.txt")],
        "typeid_decode": [r["text"].encode() for r in rows(t, "typeid.txt")]
        + [r["expect"].encode() for r in rows(t, "typeid_monotonic.txt") if not r["expect"].startswith("error:")]
        + [unescape(r["input"]) for r in rows(t, "typeid_invalid.txt")],
        "traceparent_decode": [r[c].encode() for r in rows(t, "traceparent.txt") for c in ("header", "rebuilt")]
        + [unescape(r["input"]) for r in rows(t, "traceparent_invalid.txt")],
    }


def short_uuid(t):
    """Its alphabet's length - 1 and bytes, then the text: every vector
    and decode case."""
    named = {"flickr": b"123456789abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ",
             "cookie": b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ!#$%&'()*+-./:<=>?@[]^_`{|}~"}

    def head(column):
        alphabet = named.get(column) or hexbytes(column)
        return bytes([len(alphabet) - 1]) + alphabet
    return ([head(r["alphabet"]) + hexbytes(r["text_hex"]) for r in rows(t, "short_uuid.txt")]
            + [head(r["alphabet"]) + hexbytes(r["text_hex"]) for r in rows(t, "short_uuid_decode.txt")])


def roundtrip(t):
    values = [hexbytes(r["bytes_hex"]) for f in ("ulid.txt", "relative.txt") for r in rows(t, f)]
    return [a + b for a, b in zip(values, values[1:] + values[:1])]


def nanoid(t):
    seeds = []
    for r in rows(t, "nanoid.txt"):
        size = int(r["size"])
        if r["alphabet_hex"] == "-":
            head = be(size, 2) + be(0x8000, 2)
        else:
            alphabet = hexbytes(r["alphabet_hex"])
            head = be(size, 2) + be(len(alphabet), 2) + alphabet
        seeds.append(head + hexbytes(r["stream_hex"]))
    return seeds


def snowflake_layout(t):
    """T, M, S, order (1 byte each), U (4), E (8), then the ID, a clock
    reading and a machine id (8 each): the layout vectors, each with its
    timestamp as the reading."""
    sys.path.insert(0, t)
    sys.dont_write_bytecode = True
    from generate_vectors import layout_of  # the reference's reading of a layout column
    seeds = []
    for r in rows(t, "snowflake_layout.txt"):
        tb, u, m, sb, e, order = layout_of(r["layout"])
        now = int(r["timestamp"]) if r["timestamp"].isdigit() else e
        machine = int(r["machine_id"]) if r["machine_id"].isdigit() else 0
        seeds.append(bytes([tb, m, sb, 1 if order == "time-seq-machine" else 0]) + be(u, 4) + be(e, 8)
                     + be(int(r["id"]), 8) + be(now, 8) + be(machine, 8))
    return seeds


def scenarios(t, name):
    by_name = {}
    for r in rows(t, name):
        by_name.setdefault(r["scenario"], []).append(r)
    return by_name.values()


def generators(t):
    """Each scenario as one script: 'any int64' clock, then the draw."""
    header = be(1, 2) + b"\x00"  # machine 1, epoch 0
    seeds = []
    for name, kind in (("ulid_monotonic.txt", 0), ("uuid7_monotonic.txt", 1)):
        for scenario in scenarios(t, name):
            seeds.append(header + b"".join(
                bytes([kind | 3 << 2]) + be(int(r["now_ms"]), 8) + hexbytes(r["random_hex"]) for r in scenario))
    for scenario in scenarios(t, "relative_monotonic.txt"):
        seeds.append(header + b"".join(
            bytes([2 | 3 << 2 | 1 << 6]) + be(int(r["now_ms"]), 8) + hexbytes(r["random_hex"]) for r in scenario))
    for scenario in scenarios(t, "snowflake_sequence.txt"):
        head = be(int(scenario[0]["machine_id"]), 2) + b"\x02" + be(int(scenario[0]["epoch"]), 8)
        seeds.append(head + b"".join(bytes([3 | 3 << 2]) + be(int(r["now_ms"]), 8) for r in scenario))
    # Counters at their maximum, then the same ms: overflow for each kind;
    # and a burst that exhausts a Snowflake millisecond.
    for kind, n in ((0, 10), (1, 10), (2, 7)):
        seeds.append(header + bytes([kind | 7 << 2]) + be(1000, 6) + b"\xff" * n + bytes([kind]) * 2)
    seeds.append(header + bytes([3 | 6 << 2, 0xF8, 3]))
    return seeds


def cuid2(t):
    """Length, fingerprint (up to 254 bytes), then one 'any int64' clock
    operation at the first ID's time followed by every draw of the row."""
    seeds = []
    for r in rows(t, "cuid2.txt"):
        fp = b"" if r["fingerprint_hex"] == "-" else hexbytes(r["fingerprint_hex"])
        if len(fp) > 254:
            continue
        head = bytes([int(r["length"]) + 3, len(fp)]) + fp
        first_ms = int(r["times_ms"].split(",")[0])
        draws = b"".join(hexbytes(d) for d in r["draws_hex"].split(","))
        seeds.append(head + bytes([2]) + be(first_ms, 8) + draws)
    # the clock's last ms, then one step past it (a time before 1970)
    seeds.append(bytes([24 + 3, 0, 2]) + be(2**63 - 1, 8) + bytes([1, 33]))
    return seeds


def sqids(t):
    """The encoder's number (fuzz/sqids_decode.c: 0 the default one), then
    the text: the IDs of the default encoder, and the spec's texts."""
    seeds = []
    for r in rows(t, "sqids.txt"):
        if r["alphabet_hex"] == "6162636465666768696a6b6c6d6e6f707172737475767778797a4142434445464748494a4b4c4d4e4f505152535455565758595a30313233343536373839" and r["id_hex"] not in ("-", "error:max-attempts"):
            seeds.append(b"\x00" + hexbytes(r["id_hex"]))
    for r in rows(t, "sqids_spec.txt"):
        if r["alphabet"] == "-" and r["op"] in ("both", "decode"):
            seeds.append(b"\x00" + r["id"].encode())
    seeds += [b"\x01" + b"0123456789abcdef", b"\x02" + b"abcabc", b"\x03" + bytes(range(128))]
    return seeds


def main():
    testdata, out = sys.argv[1], sys.argv[2]
    targets = decoders(testdata)
    targets["roundtrip"] = roundtrip(testdata)
    targets["short_uuid_decode"] = short_uuid(testdata)
    targets["nanoid"] = nanoid(testdata)
    targets["generators"] = generators(testdata)
    targets["cuid2"] = cuid2(testdata)
    targets["snowflake_layout"] = snowflake_layout(testdata)
    targets["sqids_decode"] = sqids(testdata)
    for target, seeds in targets.items():
        d = os.path.join(out, target)
        os.makedirs(d, exist_ok=True)
        for i, seed in enumerate(seeds):
            with open(os.path.join(d, "seed-%d" % i), "wb") as f:
                f.write(seed)
    print("seed corpus: " + ", ".join("%s %d" % (k, len(v)) for k, v in sorted(targets.items())))


if __name__ == "__main__":
    main()
