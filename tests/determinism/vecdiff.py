#!/usr/bin/env python3
"""Compare Vecs that PETSc wrote with -ksp_view_solution binary:FILE (test t970).

PETSc's binary format: big-endian int32 class id 1211214 (VEC_FILE_CLASSID), int32 n,
then n big-endian float64 (real double builds). A DMDA global Vec is written in the
natural (i fastest, then j, then k) ordering whatever the process grid.

  vecdiff.py A B        print "n max|A-B| max|A| rel" and exit 0
  vecdiff.py --permute M,N,P px,py,pz A OUT
                        write A reordered as PETSc's parallel ordering of an
                        M x N x P DMDA on px x py x pz ranks (the negative control:
                        what a file in the wrong ordering would look like)
"""
import struct
import sys

VEC_CLASSID = 1211214


def read_vec(path):
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 8:
        sys.exit("%s: %d bytes, not a PETSc binary Vec" % (path, len(data)))
    classid, n = struct.unpack(">ii", data[:8])
    if classid != VEC_CLASSID:
        sys.exit("%s: class id %d, not a Vec (%d)" % (path, classid, VEC_CLASSID))
    if len(data) != 8 + 8 * n:
        sys.exit("%s: %d bytes for %d values (expected %d)" % (path, len(data), n, 8 + 8 * n))
    return list(struct.unpack(">%dd" % n, data[8:]))


def write_vec(path, v):
    with open(path, "wb") as f:
        f.write(struct.pack(">ii", VEC_CLASSID, len(v)))
        f.write(struct.pack(">%dd" % len(v), *v))


def split(n, p):
    """PETSc's default DMDA ownership: n/p each, the first n%p ranks one more."""
    return [n // p + (1 if i < n % p else 0) for i in range(p)]


def to_petsc_order(v, dims, procs):
    M, N, P = dims
    lx, ly, lz = (split(d, p) for d, p in zip(dims, procs))
    out = []
    zs = 0
    for nz in lz:
        ys = 0
        for ny in ly:
            xs = 0
            for nx in lx:
                for k in range(zs, zs + nz):
                    for j in range(ys, ys + ny):
                        base = (k * N + j) * M
                        out.extend(v[base + xs:base + xs + nx])
                xs += nx
            ys += ny
        zs += nz
    return out


def main(argv):
    if len(argv) == 5 and argv[0] == "--permute":
        dims = [int(s) for s in argv[1].split(",")]
        procs = [int(s) for s in argv[2].split(",")]
        v = read_vec(argv[3])
        if len(v) != dims[0] * dims[1] * dims[2]:
            sys.exit("%s: %d values, not %s" % (argv[3], len(v), argv[1]))
        write_vec(argv[4], to_petsc_order(v, dims, procs))
        return 0
    if len(argv) != 2:
        sys.exit(__doc__)
    a, b = read_vec(argv[0]), read_vec(argv[1])
    if len(a) != len(b):
        sys.exit("%s has %d values, %s %d" % (argv[0], len(a), argv[1], len(b)))
    if any(x != x or y != y for x, y in zip(a, b)):
        print("%d nan nan nan" % len(a))
        return 0
    d = max((abs(x - y) for x, y in zip(a, b)), default=0.0)
    m = max((abs(x) for x in a), default=0.0)
    rel = d / m if m > 0 else (0.0 if d == 0 else float("inf"))
    print("%d %.3e %.3e %.3e" % (len(a), d, m, rel))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
