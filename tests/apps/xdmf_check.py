#!/usr/bin/python3
"""xdmf_check.py SIDECAR.xmf [--xy-against GRID.h5]: every HDF5 reference of an XDMF sidecar
exists with the dimensions it declares (HyperSlabs included), and, with --xy-against, an
X-Y-unstructured grid's sidecar shows the same values at the same places as the regular grid
GRID.h5 made from the same analytic fields: for each level z and each quad, the field value the
sidecar attaches to it equals GRID's /fields/NAME[z][y][x] at the quad's lower-left corner (x, y).
Prints one line per problem and exits 1, or prints "ok N references" and exits 0."""
import os
import sys
import xml.etree.ElementTree as ET

import h5py
import numpy as np


def fail(msg):
    print("xdmf_check: " + msg)
    sys.exit(1)


def dims(item):
    return tuple(int(d) for d in item.get("Dimensions").split())


def data(item, base):
    """The array an XDMF DataItem denotes (HDF, XML or HyperSlab), checked against its Dimensions."""
    kind = item.get("ItemType", "Uniform")
    want = dims(item)
    if kind == "HyperSlab":
        sel, src = list(item.findall("DataItem"))
        s = np.array(data(sel, base), dtype=np.int64).reshape(3, -1)
        a = data(src, base)
        idx = tuple(slice(st, st + sd * (cn - 1) + 1, sd) for st, sd, cn in zip(*s))
        out = a[idx]
    elif item.get("Format") == "HDF":
        fname, _, path = item.text.strip().partition(":")
        with h5py.File(os.path.join(base, fname), "r") as f:
            if path not in f:
                fail("%s: no dataset %s" % (fname, path))
            out = f[path][()]
        if int(np.prod(out.shape)) != int(np.prod(want)):
            fail("%s:%s has shape %s, the sidecar says %s" % (fname, path, out.shape, want))
        data.refs += 1
    else:
        out = np.array(item.text.split(), dtype=float)
    if int(np.prod(out.shape)) != int(np.prod(want)):
        fail("a %s DataItem gives %s values, declared %s" % (kind, out.shape, want))
    return out.reshape(want)


data.refs = 0


def main():
    xmf = sys.argv[1]
    against = sys.argv[3] if len(sys.argv) > 3 and sys.argv[2] == "--xy-against" else None
    base = os.path.dirname(xmf) or "."
    root = ET.parse(xmf).getroot()
    grids = [g for g in root.iter("Grid") if g.get("GridType", "Uniform") == "Uniform"]
    if not grids:
        fail("%s: no grid" % xmf)
    for g in grids:
        topo, geo = g.find("Topology"), g.find("Geometry")
        if topo is None or geo is None:
            fail("grid %s: no Topology or Geometry" % g.get("Name"))
        arrays = {}
        for parent in [topo, geo] + g.findall("Attribute"):
            for item in parent.findall("DataItem"):
                arrays[parent.get("Name", parent.tag)] = data(item, base)
        if topo.get("TopologyType") == "Polyvertex":
            n = int(topo.get("NumberOfElements"))
            xyz = arrays["Geometry"]
            if xyz.shape[0] != n or not (0 <= xyz.min() and xyz.max() <= 1):
                fail("grid %s: %d points, geometry %s outside [0,1]" % (g.get("Name"), n, xyz.shape))
            for a in g.findall("Attribute"):
                if arrays[a.get("Name")].size != n:
                    fail("attribute %s: not one value per point" % a.get("Name"))
        if against and topo.get("TopologyType") == "Quadrilateral":
            z = int(float(g.find("Time").get("Value")))
            quads, nodes = arrays["Topology"], arrays["Geometry"]
            ll = nodes[quads[:, 0]].astype(int)  # lower-left corner of each stored cell
            with h5py.File(against, "r") as f:
                for a in g.findall("Attribute"):
                    ref = f["/fields/" + a.get("Name")][()][z]
                    got = arrays[a.get("Name")].reshape(-1)
                    if not np.array_equal(got, ref[ll[:, 1], ll[:, 0]]):
                        fail("level %d, field %s: the sidecar's cells do not match %s"
                             % (z, a.get("Name"), against))
            corners = nodes[quads].astype(int) - ll[:, None, :]
            if not (corners == np.array([[0, 0], [1, 0], [1, 1], [0, 1]])).all():
                fail("level %d: quads are not unit squares counter-clockwise" % z)
    print("ok %d references" % data.refs)


main()
