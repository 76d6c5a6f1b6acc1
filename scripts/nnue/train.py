#!/usr/bin/env python3
"""Trains Damiera's network evaluation on self-play data and exports a .dmn file.

The data are `damiera selfplay` files (DMRADATA, src/train/data.rs); the target, the
train/validation split and the score scale are those of the pattern trainer
(src/train/fit.rs): the target for White is lambda * result + (1 - lambda) *
sigmoid(k * search score), with k the scale that best maps search scores to results;
validation games are picked by the same SplitMix64 hash of the game number and seed,
and run numbers keep games of different files apart as `damiera train` does.

The network and its integer form are documented in crates/engine/src/search/eval/nnue.rs, the file
in crates/engine/src/search/eval/nnue_file.rs. The float model here clips its weights to what the
integers can hold, so quantizing costs little; the export computes the integer network
on the validation set (the loss it reports as "quantized") and can write test vectors:
positions with the integer score, which the Rust tests compare to the engine's.

Same data, same seed, same arguments: the same bytes (one thread, fixed seeds).

    python scripts/nnue/train.py DATA.bin [MORE.bin ...] -o net.dmn [--epochs 10]

`--init net.dmn` starts from a network instead of random weights (its integers turned
back into floats at the data's scale k: `--epochs 0` writes the same bytes back).

`--heads N` gives the network N output heads (a dense and an output layer each), one
per range of piece counts (four: 1-6, 7-12, 13-18, 19-24 pieces); it is written as
format version 2. Started from a one-head network, every head starts as its head.

`--second-layer` gives every head a second dense layer (32 -> 32, clipped ReLU, as
GuiNN's networks have), written as format version 3. Started from a network without one,
the layer starts as the identity, so the network starts as the one it comes from.
"""

import argparse
import struct
import sys
import time

import numpy as np
import torch

MAGIC_DATA = b"DMRADATA"
MAGIC_NET = b"DMRANNUE"
NET_VERSION = 3  # 1 for one head, 2 for several, 3 with second dense layers
MAX_HEADS = 8
FULL_BOARD = 24  # pieces at the start: heads split 1..24 in equal ranges
RECORD = np.dtype(
    [
        ("white", "<u4"),
        ("black", "<u4"),
        ("kings", "<u4"),
        ("game", "<u4"),
        ("score", "<i2"),
        ("result", "u1"),
        ("flags", "u1"),
    ]
)
assert RECORD.itemsize == 20

INPUTS, HIDDEN, DENSE = 128, 128, 32
ACTIVATION = 127  # a unit activation in integers
WEIGHT_SCALE = 64  # dense weights per unit (shift 6)
OUTPUT_SCALE = 32  # output weights per hundredth of a man
FT_LIMIT = 1000  # |first layer integer| bound: 25 of them stay inside i16
GAME_TYPES = {0: 22, 1: 21, 2: 25, 3: 26}  # variant index -> PDN GameType
VARIANT_NAMES = {0: "italian", 1: "english", 2: "russian", 3: "brazilian"}
MASK64 = (1 << 64) - 1
CHUNK = 65536  # positions per validation chunk


def load(paths):
    """The records of the data files, with game numbers kept apart per run."""
    parts, runs = [], 0
    for path in paths:
        raw = np.fromfile(path, dtype=np.uint8)
        if raw[:8].tobytes() == MAGIC_DATA:
            version, size = struct.unpack("<II", raw[8:16].tobytes())
            if version != 1 or size != 20:
                sys.exit(f"{path}: data format {version} with {size}-byte records; expected 1 and 20")
            runs += 1
            body = raw[16:]
        elif runs == 0:
            sys.exit(f"{path}: no data file header (list slice 1/N first)")
        else:
            body = raw
        if len(body) % 20:
            sys.exit(f"{path}: truncated data file ({len(raw)} bytes)")
        rec = body.view(RECORD).copy()
        rec["game"] = rec["game"] + np.uint32((runs - 1) << 24)
        parts.append(rec)
    if not parts:
        sys.exit("no data")
    rec = np.concatenate(parts)
    variants = np.unique(rec["flags"] >> 1)
    if len(variants) != 1:
        sys.exit("the data mixes variants: train each variant on its own games")
    return rec, int(variants[0])


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def cross_entropy(p, t):
    p = np.clip(p, 1e-12, 1 - 1e-12)
    return -(t * np.log(p) + (1 - t) * np.log(1 - p))


def fit_scale(rec):
    """The k of src/train/fit.rs: golden-section search of the score-to-result scale."""
    step = max(len(rec) // 200_000, 1)
    sub = rec[::step]
    score = np.clip(sub["score"].astype(np.float64), -3000, 3000)
    result = sub["result"] / 2.0

    def err(k):
        return cross_entropy(sigmoid(k * score), result).sum()

    lo, hi = 0.0005, 0.05
    for _ in range(50):
        m1, m2 = lo + (hi - lo) * 0.382, lo + (hi - lo) * 0.618
        if err(m1) < err(m2):
            hi = m2
        else:
            lo = m1
    return (lo + hi) / 2


def splitmix_first(seed):
    """First output of src/train/mod.rs's Rng (SplitMix64) for each seed (Python ints)."""
    z = (seed + 0x9E3779B97F4A7C15) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def validation_mask(games, seed, share):
    """The games fit.rs holds out: hash(seed ^ game << 20) % 1e6 < share * 1e6."""
    threshold = int(min(max(share, 0.0), 1.0) * 1_000_000)
    unique, inverse = np.unique(games, return_inverse=True)
    held = np.array(
        [splitmix_first(seed ^ (int(g) << 20)) % 1_000_000 < threshold for g in unique],
        dtype=bool,
    )
    return held[inverse]


def bits32(x):
    """[n] uint32 -> [n, 32] uint8, bit i of each."""
    return np.unpackbits(x.astype("<u4").view(np.uint8).reshape(-1, 4), axis=1, bitorder="little")


def features(rec):
    """Both views' inputs, [n, 128] float32 each, and whether White is to move."""
    white, black, kings = rec["white"], rec["black"], rec["kings"]
    sets = [white & ~kings, white & kings, black & ~kings, black & kings]
    wm, wk, bm, bk = (bits32(s) for s in sets)
    white_view = np.concatenate([wm, wk, bm, bk], axis=1)
    # Black's view: own pieces first, the board turned (square i -> 31 - i).
    turned = [kind * 32 + 31 - i for kind in range(4) for i in range(32)]
    black_view = np.concatenate([bm, bk, wm, wk], axis=1)[:, turned]
    white_to_move = (rec["flags"] & 1) == 0
    return white_view.astype(np.float32), black_view.astype(np.float32), white_to_move


def targets(rec, k, lam):
    """The target for the side to move."""
    white = lam * rec["result"] / 2.0 + (1 - lam) * sigmoid(k * rec["score"].astype(np.float64))
    return np.where((rec["flags"] & 1) == 0, white, 1 - white).astype(np.float32)


def head_index(pieces, heads):
    """The head of positions of `pieces` pieces (nnue.rs's Network::head_index)."""
    return np.minimum((np.maximum(pieces, 1) - 1) * heads // FULL_BOARD, heads - 1)


class Net(torch.nn.Module):
    """The float network: both views through one first layer, side to move first; the
    dense and output layers of each head side by side (`dense` has DENSE outputs a head,
    `out` one output a head)."""

    def __init__(self, heads=1, second=False):
        super().__init__()
        self.heads = heads
        self.second = second
        self.ft = torch.nn.Linear(INPUTS, HIDDEN)
        self.dense = torch.nn.Linear(2 * HIDDEN, DENSE * heads)
        self.out = torch.nn.Linear(DENSE, heads)
        if second:
            # Each head's second dense layer: weights [head, neuron, input], biases [head, neuron].
            bound = 1 / DENSE**0.5
            self.second_w = torch.nn.Parameter(torch.empty(heads, DENSE, DENSE).uniform_(-bound, bound))
            self.second_b = torch.nn.Parameter(torch.empty(heads, DENSE).uniform_(-bound, bound))

    def forward(self, white_view, black_view, white_to_move):
        w = torch.clamp(self.ft(white_view), 0, 1)
        b = torch.clamp(self.ft(black_view), 0, 1)
        stm = white_to_move.unsqueeze(1)
        x = torch.cat([torch.where(stm, w, b), torch.where(stm, b, w)], dim=1)
        h = torch.clamp(self.dense(x), 0, 1)
        if self.heads == 1 and not self.second:
            return self.out(h).squeeze(1)
        pieces = white_view.sum(1).long()
        head = ((pieces.clamp(min=1) - 1) * self.heads // FULL_BOARD).clamp(max=self.heads - 1)
        h = h.view(-1, self.heads, DENSE)[torch.arange(len(head)), head]
        if self.second:
            h = torch.clamp(torch.einsum("noi,ni->no", self.second_w[head], h) + self.second_b[head], 0, 1)
        return (h * self.out.weight[head]).sum(1) + self.out.bias[head]

    @torch.no_grad()
    def clip(self, k):
        """Keeps the weights where their integers fit (see nnue.rs)."""
        limit = FT_LIMIT / ACTIVATION
        self.ft.weight.clamp_(-limit, limit)
        self.ft.bias.clamp_(-limit, limit)
        self.dense.weight.clamp_(-128 / WEIGHT_SCALE, 127 / WEIGHT_SCALE)
        if self.second:
            self.second_w.clamp_(-128 / WEIGHT_SCALE, 127 / WEIGHT_SCALE)
        out_limit = 32767 * k / OUTPUT_SCALE
        self.out.weight.clamp_(-out_limit, out_limit)


def quantize(net, k):
    """The integer weights of nnue.rs from the float ones (logits; k turns them into
    hundredths of a man): the first layer, and a list of heads."""
    g = lambda t: t.detach().double().numpy()
    ft_w = np.clip(np.round(g(net.ft.weight).T * ACTIVATION), -FT_LIMIT, FT_LIMIT).astype(np.int16)
    ft_b = np.clip(np.round(g(net.ft.bias) * ACTIVATION), -FT_LIMIT, FT_LIMIT).astype(np.int16)
    d_w = np.clip(np.round(g(net.dense.weight) * WEIGHT_SCALE), -128, 127).astype(np.int8)
    d_b = np.clip(np.round(g(net.dense.bias) * ACTIVATION * WEIGHT_SCALE), -2**31, 2**31 - 1).astype(np.int32)
    o_w = np.clip(np.round(g(net.out.weight) / k * OUTPUT_SCALE), -32768, 32767).astype(np.int16)
    o_b = np.clip(np.round(g(net.out.bias) / k * ACTIVATION * OUTPUT_SCALE), -2**31, 2**31 - 1).astype(np.int32)
    heads = [
        dict(d_w=d_w[i * DENSE : (i + 1) * DENSE], d_b=d_b[i * DENSE : (i + 1) * DENSE], o_w=o_w[i], o_b=np.int32(o_b[i]))
        for i in range(net.heads)
    ]
    if net.second:
        s_w = np.clip(np.round(g(net.second_w) * WEIGHT_SCALE), -128, 127).astype(np.int8)
        s_b = np.clip(np.round(g(net.second_b) * ACTIVATION * WEIGHT_SCALE), -2**31, 2**31 - 1).astype(np.int32)
        for i, hq in enumerate(heads):
            hq["s_w"], hq["s_b"] = s_w[i], s_b[i]
    return dict(ft_w=ft_w, ft_b=ft_b, heads=heads)


def wrap(x, bits):
    half = 1 << (bits - 1)
    return (x + half) % (1 << bits) - half


def integer_scores(q, white_view, black_view, white_to_move):
    """The engine's integer evaluation (nnue.rs), hundredths of a man for the side to
    move: the trainer's own reference."""
    ft_w = q["ft_w"].astype(np.int64)
    acc_w = wrap(q["ft_b"].astype(np.int64) + white_view.astype(np.int64) @ ft_w, 16)
    acc_b = wrap(q["ft_b"].astype(np.int64) + black_view.astype(np.int64) @ ft_w, 16)
    stm = white_to_move[:, None]
    x = np.clip(np.concatenate([np.where(stm, acc_w, acc_b), np.where(stm, acc_b, acc_w)], axis=1), 0, ACTIVATION)
    head = head_index(white_view.sum(1).astype(np.int64), len(q["heads"]))
    scores = np.zeros(len(x), dtype=np.int64)
    for i, hq in enumerate(q["heads"]):
        rows = head == i
        s = wrap(x[rows] @ hq["d_w"].astype(np.int64).T + hq["d_b"].astype(np.int64), 32)
        h = np.clip(s >> 6, 0, ACTIVATION)
        if "s_w" in hq:
            s = wrap(h @ hq["s_w"].astype(np.int64).T + hq["s_b"].astype(np.int64), 32)
            h = np.clip(s >> 6, 0, ACTIVATION)
        out = int(hq["o_b"]) + h @ hq["o_w"].astype(np.int64)
        scores[rows] = np.floor_divide(out, ACTIVATION * OUTPUT_SCALE)
    return scores


def checksum(body):
    """FNV-1a (64 bits) of a network file's body, as nnue_file.rs checks it."""
    h = 0xCBF29CE484222325
    for byte in body:
        h = ((h ^ byte) * 0x100000001B3) & MASK64
    return h


def to_bytes(q, variant):
    """The file: format version 1 for one head (the bytes of networks made before heads),
    2 with the number of heads for more, 3 with second dense layers (and their size)."""
    heads = q["heads"]
    second = "s_w" in heads[0]
    version = 3 if second else 1 if len(heads) == 1 else 2
    body = struct.pack("<I", GAME_TYPES[variant]) + struct.pack("<III", INPUTS, HIDDEN, DENSE)
    if version >= 2:
        body += struct.pack("<I", len(heads))
    if version == 3:
        body += struct.pack("<I", DENSE)
    body += q["ft_b"].astype("<i2").tobytes() + q["ft_w"].astype("<i2").tobytes()
    for hq in heads:
        body += hq["d_b"].astype("<i4").tobytes() + hq["d_w"].astype("i1").tobytes()
        if second:
            body += hq["s_b"].astype("<i4").tobytes() + hq["s_w"].astype("i1").tobytes()
        body += struct.pack("<i", int(hq["o_b"])) + hq["o_w"].astype("<i2").tobytes()
    return MAGIC_NET + struct.pack("<I", version) + struct.pack("<Q", checksum(body)) + body


def from_bytes(data, variant, path):
    """The integer weights of a .dmn file (to_bytes's layout), checked: its magic,
    version, checksum, game and sizes, each refused with one line naming what is wrong."""
    head = len(MAGIC_NET) + 12
    if len(data) < head + 16 or data[: len(MAGIC_NET)] != MAGIC_NET:
        sys.exit(f"{path}: not a network file (no {MAGIC_NET.decode()} header)")
    version, stored = struct.unpack("<IQ", data[len(MAGIC_NET) : head])
    if version not in (1, 2, 3):
        sys.exit(f"{path}: network format {version}; this trainer reads 1 to {NET_VERSION}")
    body = data[head:]
    if checksum(body) != stored:
        sys.exit(f"{path}: damaged network file (checksum differs)")
    game, inputs, hidden, dense = struct.unpack("<IIII", body[:16])
    if game != GAME_TYPES[variant]:
        sys.exit(f"{path}: a network for GameType {game}, the data are {VARIANT_NAMES[variant]} (GameType {GAME_TYPES[variant]})")
    if (inputs, hidden, dense) != (INPUTS, HIDDEN, DENSE):
        sys.exit(f"{path}: a {inputs}-{hidden}-{dense} network; this trainer makes {INPUTS}-{HIDDEN}-{DENSE}")
    at, heads = 16, 1
    if version >= 2:
        (heads,) = struct.unpack("<I", body[16:20]) if len(body) >= 20 else (0,)
        at = 20
        least = 1 if version == 3 else 2
        if not least <= heads <= MAX_HEADS:
            sys.exit(f"{path}: {heads} heads; a version {version} network has {least} to {MAX_HEADS}")
    if version == 3:
        (second,) = struct.unpack("<I", body[20:24]) if len(body) >= 24 else (0,)
        at = 24
        if second != DENSE:
            sys.exit(f"{path}: a second dense layer of {second}; this trainer makes {DENSE}")
    first = [("ft_b", "<i2", HIDDEN), ("ft_w", "<i2", INPUTS * HIDDEN)]
    per_head = [("d_b", "<i4", DENSE), ("d_w", "i1", DENSE * 2 * HIDDEN)]
    if version == 3:
        per_head += [("s_b", "<i4", DENSE), ("s_w", "i1", DENSE * DENSE)]
    per_head += [("o_b", "<i4", 1), ("o_w", "<i2", DENSE)]
    size = lambda fields: sum(np.dtype(t).itemsize * n for _, t, n in fields)
    if len(body) != at + size(first) + heads * size(per_head):
        sys.exit(f"{path}: {len(data)} bytes, not the size of a {INPUTS}-{HIDDEN}-{DENSE} network of {heads} heads")

    def read(fields):
        nonlocal at
        out = {}
        for name, t, n in fields:
            out[name] = np.frombuffer(body, dtype=t, count=n, offset=at).astype(np.int64)
            at += np.dtype(t).itemsize * n
        return out

    q = read(first)
    q["ft_w"] = q["ft_w"].reshape(INPUTS, HIDDEN)
    q["heads"] = []
    for _ in range(heads):
        hq = read(per_head)
        hq["d_w"] = hq["d_w"].reshape(DENSE, 2 * HIDDEN)
        if "s_w" in hq:
            hq["s_w"] = hq["s_w"].reshape(DENSE, DENSE)
        hq["o_b"] = hq["o_b"][0]
        q["heads"].append(hq)
    return q


@torch.no_grad()
def load_weights(net, q, k):
    """Sets the float network to the integer one `q` (quantize's inverse at the data's
    scale k), to train on from there."""
    t = lambda a: torch.from_numpy(np.asarray(a, dtype=np.float64)).float()
    heads = q["heads"]
    if len(heads) == 1:
        heads = heads * net.heads  # every head starts as the one
    elif len(heads) != net.heads:
        sys.exit(f"--init: a network of {len(heads)} heads; --heads is {net.heads}")
    net.ft.weight.copy_(t(q["ft_w"].T / ACTIVATION))
    net.ft.bias.copy_(t(q["ft_b"] / ACTIVATION))
    net.dense.weight.copy_(t(np.concatenate([h["d_w"] for h in heads]) / WEIGHT_SCALE))
    net.dense.bias.copy_(t(np.concatenate([h["d_b"] for h in heads]) / (ACTIVATION * WEIGHT_SCALE)))
    net.out.weight.copy_(t(np.stack([h["o_w"] for h in heads]) * k / OUTPUT_SCALE))
    net.out.bias.copy_(t(np.array([h["o_b"] for h in heads]) * k / (ACTIVATION * OUTPUT_SCALE)))
    if net.second:
        # A network without second layers: each starts as the identity, which scores the same.
        eye = np.eye(DENSE) * WEIGHT_SCALE
        net.second_w.copy_(t(np.stack([h.get("s_w", eye) for h in heads]) / WEIGHT_SCALE))
        net.second_b.copy_(t(np.stack([h.get("s_b", np.zeros(DENSE)) for h in heads]) / (ACTIVATION * WEIGHT_SCALE)))
    elif "s_w" in heads[0]:
        sys.exit("--init: a network with second dense layers; give --second-layer")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("data", nargs="+", help="self-play data files (damiera selfplay)")
    ap.add_argument("-o", "--output", required=True, help="network file to write (.dmn)")
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--lambda", dest="lam", type=float, default=0.5, help="weight of the game result in the target")
    ap.add_argument("--validation", type=float, default=0.1, help="share of games held out")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--learning-rate", type=float, default=0.001)
    ap.add_argument("--batch", type=int, default=1024)
    ap.add_argument("--init", help="start from this network (.dmn) instead of random weights")
    ap.add_argument("--heads", type=int, default=1, help=f"output heads, by piece count (1 to {MAX_HEADS})")
    ap.add_argument("--second-layer", action="store_true", help="a second dense layer in every head (format version 3)")
    ap.add_argument("--vectors", help="also write test vectors (positions and integer scores) here")
    ap.add_argument("--vector-count", type=int, default=64)
    args = ap.parse_args()
    if not 1 <= args.heads <= MAX_HEADS:
        sys.exit(f"--heads {args.heads}: give 1 to {MAX_HEADS}")

    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    torch.use_deterministic_algorithms(True)
    rng = np.random.default_rng(args.seed)
    start = time.time()

    rec, variant = load(args.data)
    k = fit_scale(rec)
    held = validation_mask(rec["game"], args.seed, args.validation)
    train, val = rec[~held], rec[held]
    if len(train) == 0 or len(val) == 0:
        sys.exit(f"need positions for both training and validation (got {len(train)} and {len(val)})")
    ty, vy = targets(train, k, args.lam), targets(val, k, args.lam)
    print(f"train.py: {VARIANT_NAMES[variant]}, k = {k:.6f}; {len(train)} training and {len(val)} validation positions")

    def tensors(rec_part, y_part):
        """A batch's inputs, built from its records (so memory stays ~20 bytes a position)."""
        w, b, m = features(rec_part)
        return torch.from_numpy(w), torch.from_numpy(b), torch.from_numpy(m), torch.from_numpy(y_part)

    net = Net(args.heads, args.second_layer)
    if args.init:
        try:
            with open(args.init, "rb") as f:
                init = f.read()
        except OSError as e:
            sys.exit(f"--init: {e}")
        load_weights(net, from_bytes(init, variant, args.init), k)
        print(f"train.py: starting from {args.init}")
    net.clip(k)
    opt = torch.optim.Adam(net.parameters(), lr=args.learning_rate)
    bce = torch.nn.BCEWithLogitsLoss()
    bce_sum = torch.nn.BCEWithLogitsLoss(reduction="sum")

    def val_loss():
        total = 0.0
        with torch.no_grad():
            for i in range(0, len(val), CHUNK):
                w, b, m, y = tensors(val[i : i + CHUNK], vy[i : i + CHUNK])
                total += bce_sum(net(w, b, m), y).item()
        return total / len(val)

    best = (val_loss(), 0, {n: p.clone() for n, p in net.state_dict().items()})
    print(f"epoch   0  validation loss {best[0]:.5f}")
    for epoch in range(1, args.epochs + 1):
        t0 = time.time()
        for group in opt.param_groups:
            group["lr"] = args.learning_rate * (1 - 0.9 * (epoch - 1) / max(args.epochs, 1))
        order = rng.permutation(len(train))
        total = 0.0
        for i in range(0, len(order), args.batch):
            idx = order[i : i + args.batch]
            w, b, m, y = tensors(train[idx], ty[idx])
            opt.zero_grad()
            loss = bce(net(w, b, m), y)
            loss.backward()
            opt.step()
            net.clip(k)
            total += loss.item() * len(idx)
        v = val_loss()
        print(f"epoch {epoch:3}  train loss {total / len(train):.5f}  validation loss {v:.5f}  ({time.time() - t0:.1f} s)")
        if v < best[0]:
            best = (v, epoch, {n: p.clone() for n, p in net.state_dict().items()})
    net.load_state_dict(best[2])

    q = quantize(net, k)
    scores = np.concatenate([integer_scores(q, *features(val[i : i + CHUNK])) for i in range(0, len(val), CHUNK)])
    quantized = cross_entropy(sigmoid(k * scores.astype(np.float64)), vy.astype(np.float64)).mean()
    data = to_bytes(q, variant)
    with open(args.output, "wb") as f:
        f.write(data)
    print(
        f"train.py: validation loss float {best[0]:.5f} at epoch {best[1]}, quantized {quantized:.5f}; "
        f"{time.time() - start:.1f} s; wrote {args.output} ({len(data)} bytes)"
    )
    if args.vectors:
        pick = np.linspace(0, len(val) - 1, min(args.vector_count, len(val))).astype(np.int64)
        with open(args.vectors, "w") as f:
            f.write("# white black kings (FID square sets, hex) side-to-move variant score: integer network of "
                    f"{args.output.split('/')[-1]}, written by scripts/nnue/train.py\n")
            for i in pick:
                r = val[i]
                side = "b" if r["flags"] & 1 else "w"
                f.write(f"{r['white']:08x} {r['black']:08x} {r['kings']:08x} {side} {VARIANT_NAMES[variant]} {scores[i]}\n")
        print(f"train.py: wrote {len(pick)} test vectors to {args.vectors}")


if __name__ == "__main__":
    main()
