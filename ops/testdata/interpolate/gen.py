#!/usr/bin/python3
"""Writes golden.json: Interpolate cases of the modes linear (antialias),
bilinear_pillow and bicubic_pillow with outputs computed by Pillow and by
PyTorch, runtimes nobody on the team wrote (TestInterpolateGolden).

  /usr/bin/python3 ops/testdata/interpolate/gen.py   (Pillow 9.4, torch 1.13)

Pillow resizes float32 images (mode "F") as OpenVINO's pillow modes do:
the rows then the columns, each output a double sum stored as float32, so
its outputs must match exactly (bicubic with cube_coeff -0.5, Pillow's a).
PyTorch's interpolate with antialias=True follows Pillow's filters in
float32 arithmetic of its own: its outputs match to rounding, and for
mode linear with antialias only where every axis shrinks, by sizes, under
half_pixel (OpenVINO then uses the same triangle filter; where an axis
grows it narrows the filter on that axis too, where PyTorch does not).
"""
import json
import os

import numpy as np
import PIL
from PIL import Image
import torch
import torch.nn.functional as F

rng = np.random.default_rng(29)
cases = []


def data(shape):
    return (rng.standard_normal(shape) * 10).astype(np.float32)


def add(name, mode, source, x, sizes, want, extra=()):
    cases.append({
        "name": name, "source": source,
        "attrs": ["mode", mode, "shape_calculation_mode", "sizes"] + list(extra),
        "shape": list(x.shape), "in": [float(v) for v in x.ravel()],
        "axes": [x.ndim - 2, x.ndim - 1], "sizes": list(sizes),
        "want": [float(v) for v in np.asarray(want, np.float32).ravel()],
    })


# Pillow: 2-D float32 images, shrunk, grown and mixed.
for (h, w), (oh, ow) in [((7, 9), (3, 4)), ((5, 6), (11, 13)), ((8, 5), (3, 12)), ((4, 4), (4, 2)), ((1, 7), (3, 2)), ((12, 3), (5, 3))]:
    x = data((h, w))
    for mode, resample, extra in [("bilinear_pillow", Image.BILINEAR, []), ("bicubic_pillow", Image.BICUBIC, ["cube_coeff", "-0.5"])]:
        y = np.asarray(Image.fromarray(x, mode="F").resize((ow, oh), resample), np.float32)
        add(f"pil {mode} {h}x{w} to {oh}x{ow}", mode, f"Pillow {PIL.__version__}", x, (oh, ow), y, extra)

# PyTorch: batches of NCHW, each matrix resampled alone.
for shape, size in [((2, 3, 9, 7), (4, 3)), ((1, 2, 6, 10), (11, 4)), ((1, 1, 16, 16), (5, 5))]:
    x = data(shape)
    t = torch.from_numpy(x)
    for mode, tmode, extra in [("bilinear_pillow", "bilinear", []), ("bicubic_pillow", "bicubic", ["cube_coeff", "-0.5"])]:
        y = F.interpolate(t, size=size, mode=tmode, antialias=True, align_corners=False).numpy()
        add(f"torch {mode} {shape} to {size}", mode, f"torch {torch.__version__}", x, size, y, extra)
    if size[0] < shape[2] and size[1] < shape[3]:
        y = F.interpolate(t, size=size, mode="bilinear", antialias=True, align_corners=False).numpy()
        add(f"torch linear antialias {shape} to {size}", "linear", f"torch {torch.__version__}", x, size, y, ["antialias", "true"])

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden.json"), "w") as f:
    f.write("[\n" + ",\n".join(json.dumps(c) for c in cases) + "\n]\n")
