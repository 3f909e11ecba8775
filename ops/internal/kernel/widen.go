package kernel

import "sync"

// Short broadcast rows. A row of b shorter than a vector, or not a whole
// number of them, would reach the kernels one row per call ([N,4] / [4]),
// and a divisor per channel over a small image would be a scalar-divisor
// call per channel ([N,C,H,W] / [1,C,1,1] with a small H*W). The plan
// then widens the run to the whole pattern of b over the innermost
// dimensions (C*H*W elements in the second case), and runRange copies
// that pattern, repeated, into a tile of up to tileBytes: the rows kernel
// divides many rows per call by the tile, and the generic bookkeeping is
// paid once per tile, not once per row.

// tileBytes bounds a tile; a pattern longer than tileBytes/8 elements is
// not widened.
const tileBytes = 16 << 10

// tileRun is the run below which a broadcast row is tiled: longer rows
// already divide at full speed with the rows kernel, one row per pass of
// its inner loop.
const tileRun = 256

// tiling describes b's pattern over one run of a widened plan: element
// j of the run divides by b[bo + j] (rows), or by b[bo + j/inner]
// (channels: inner elements per channel, b's channels consecutive).
type tiling struct {
	inner int // 0 for rows
}

// widen sets tiled where the plan's innermost layout has short rows of b:
// a row of b repeated over rows of a (both contiguous), or one divisor per
// channel over a short run of a, with a contiguous across the channels.
// The run becomes the pattern: the row, or the channels times their run.
func (p *Plan) widen() {
	last := len(p.outer) - 1
	if last < 0 || p.aRun != 1 || p.aOuter[last] != p.run {
		return
	}
	switch {
	case p.bRun == 1 && p.bOuter[last] == 0 && p.run < tileRun:
		p.tiled = &tiling{}
	case p.bRun == 0 && p.bOuter[last] == 1 && p.run < tileRun/4 && p.outer[last]*p.run <= tileBytes/8:
		p.tiled = &tiling{inner: p.run}
		p.run *= p.outer[last]
		p.bRun = 1
		p.outer, p.aOuter, p.bOuter = p.outer[:last], p.aOuter[:last], p.bOuter[:last]
	}
}

var tiles = sync.Pool{New: func() any { return new([tileBytes]byte) }}

// tileLen is the length of a tile for a pattern of run elements and rows
// runs to divide, in a buffer of capacity elements: a multiple of run, and
// of 64 elements where that fits, so that the rows kernels see whole
// groups; doubled while that still saves calls, up to 1024 elements.
func tileLen(run, rows, capacity int) int {
	g := 64
	for x := run; x%2 == 0 && g > 1; x /= 2 {
		g /= 2
	}
	l := run * g // lcm(run, 64)
	if l > capacity {
		return run
	}
	for l*2 <= min(capacity, 1024) && l < run*rows {
		l *= 2
	}
	return l
}

// fillTile writes b's pattern over one run of run elements, from b[bo],
// into tile, and repeats it to tile's end (a multiple of run).
func fillTile[T any](t *tiling, tile, b []T, bo, run int) {
	if t.inner == 0 {
		copy(tile[:run], b[bo:bo+run])
	} else {
		for c := range run / t.inner {
			v := b[bo+c]
			row := tile[c*t.inner : (c+1)*t.inner]
			for j := range row {
				row[j] = v
			}
		}
	}
	for n := run; n < len(tile); n *= 2 {
		copy(tile[n:], tile[:n])
	}
}

// runTiled is runRange for a widened plan: lo and hi are multiples of the
// run (the pattern), which the parallel split keeps. Where the pattern
// repeats over rows of a (the last outer dimension advances a by one run
// and b not at all), the rows kernel divides as many rows per call as
// Chunk allows by a tile of whole patterns; otherwise each run goes to vv
// with its pattern.
func runTiled[T any](p *Plan, k variants[T], check func(a, b T) faultKind, dst, a, b []T, lo, hi int) Fault {
	if lo >= hi {
		return NoFault
	}
	buf := tiles.Get().(*[tileBytes]byte)
	defer tiles.Put(buf)
	run := p.run
	last := len(p.outer) - 1
	rowMode := last >= 0 && p.bOuter[last] == 0 && p.aOuter[last] == run
	tile := view[T](buf[:])
	if rowMode {
		tile = tile[:tileLen(run, p.outer[last], len(tile))]
	} else {
		tile = tile[:run]
	}
	// Position the odometer at the run holding lo.
	var idx [MaxRank]int
	ao, bo := 0, 0
	rest := lo / run
	for d := last; d >= 0; d-- {
		idx[d] = rest % p.outer[d]
		rest /= p.outer[d]
		ao += idx[d] * p.aOuter[d]
		bo += idx[d] * p.bOuter[d]
	}
	built := -1 // the b offset whose pattern the tile holds
	for start := lo; start < hi; {
		if bo != built {
			fillTile(p.tiled, tile, b, bo, run)
			built = bo
		}
		rows := 1
		if rowMode {
			rows = min(p.outer[last]-idx[last], (hi-start)/run)
		}
		n := rows * run
		if f := divideByTile(k, check, dst[start:start+n], a[ao:ao+n], tile, start); f.Index >= 0 {
			return f
		}
		start += n
		if rows > 1 {
			// Stay in the last dimension for rows-1 runs; the odometer
			// below advances the final one.
			idx[last] += rows - 1
			ao += (rows - 1) * p.aOuter[last]
		}
		ao, bo = p.advance(idx[:], ao, bo)
	}
	return NoFault
}

// divideByTile divides dst = a / b where b repeats tile (dst's length is
// a multiple of the pattern, and so is tile's): whole tiles through the
// rows kernel, in calls of at most Chunk elements, the rest through vv
// with a prefix of tile. start is dst's flat index, for a fault.
func divideByTile[T any](k variants[T], check func(a, b T) faultKind, dst, a, tile []T, start int) Fault {
	n, l := len(dst), len(tile)
	for off := 0; off < n; {
		m := n - off
		var bad bool
		if m >= l {
			m = min(m/l, Chunk/l) * l
			bad = k.rows(dst[off:off+m], a[off:off+m], tile)
		} else {
			bad = k.vv(dst[off:off+m], a[off:off+m], tile[:m])
		}
		if bad {
			return locate(check, m, start+off, func(j int) (T, T) { return a[off+j], tile[j%l] })
		}
		off += m
	}
	return NoFault
}
