#!/usr/bin/env python3
"""Exports the bf16 attention forms of test/Inputs/torch-attention/.

Each module is exported as a user would, with torch-mlir:

    torch_mlir.fx.export_and_import(model.eval(), q, k, v,
                                    output_type="linalg-on-tensors",
                                    func_name=NAME)

  sdpa_bf16            F.scaled_dot_product_attention, [1, 2, 256, 64]
  sdpa_causal_bf16     the same, is_causal=True
  manual_bf16_3d       softmax(q k^T / sqrt(d)) v written out, [2, 256, 128]
  manual_bf16_4d       the same on [1, 2, 256, 128]

test/Integration/torch-attention-bf16.test compiles them (docs/RealInputs.md,
"Attention exported from PyTorch in bf16"). Needs torch and torch-mlir
(scripts/setup-torch.sh):

    .venv-torch/bin/python scripts/export-torch-attention-bf16.py [--out DIR]
"""

import argparse
import math
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

try:
    import torch
    import torch.nn.functional as F
    from torch_mlir import fx
except ImportError:
    sys.exit("export-torch-attention-bf16.py: needs torch and torch-mlir; "
             "run scripts/setup-torch.sh and use .venv-torch/bin/python")


class SDPA(torch.nn.Module):
    def __init__(self, causal):
        super().__init__()
        self.causal = causal

    def forward(self, q, k, v):
        return F.scaled_dot_product_attention(q, k, v, is_causal=self.causal)


class Manual(torch.nn.Module):
    def forward(self, q, k, v):
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(q.shape[-1])
        return torch.matmul(torch.softmax(scores, dim=-1), v)


FORMS = {
    "sdpa_bf16": (SDPA(False), (1, 2, 256, 64)),
    "sdpa_causal_bf16": (SDPA(True), (1, 2, 256, 64)),
    "manual_bf16_3d": (Manual(), (2, 256, 128)),
    "manual_bf16_4d": (Manual(), (1, 2, 256, 128)),
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.join(REPO, "test", "Inputs",
                                                      "torch-attention"))
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for name, (module, shape) in FORMS.items():
        inputs = [torch.zeros(*shape, dtype=torch.bfloat16) for _ in range(3)]
        text = str(fx.export_and_import(module.eval(), *inputs,
                                        output_type="linalg-on-tensors",
                                        func_name=name))
        header = (f"// {name}: scripts/export-torch-attention-bf16.py "
                  f"(torch {torch.__version__})\n")
        with open(os.path.join(args.out, name + ".mlir"), "w") as f:
            f.write(header + text.rstrip("\n") + "\n")


if __name__ == "__main__":
    main()
