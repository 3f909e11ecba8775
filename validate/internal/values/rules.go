package values

import (
	"math"
	"slices"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/shapeinfer"
	"github.com/irdiv/irdiv/validate/internal/sym"
)

// The shape rules of the ops that move data or change shapes, on
// symbolic dims; elements that move are copies of the input's (trace
// follows small tensors exactly).

// moved is a value whose elements are elements of x elsewhere.
func (a *Analysis) moved(x *Value, t ir.ElementType, dims []sym.Expr) *Value {
	v := &Value{Type: t, Rank: -1, Shape: x.Shape, F: x.F}
	if dims != nil {
		v.Rank, v.Dims = len(dims), dims
	}
	if x.Int && isInt(t) {
		v.Int, v.all = true, a.copyOf(x)
	}
	return v
}

// copyOf is an expression for the elements of x moved elsewhere,
// independent of x's: Copy renames its element symbols. Where it holds
// none (x's elements are dims: select(H, W)) and x has several elements,
// two elements taken from it would be one atom and cancel, H - W = 0; a
// fresh element symbol in their range keeps them apart.
func (a *Analysis) copyOf(x *Value) sym.Expr {
	all := a.All(x)
	c := a.B.Copy(all)
	if _, ok := all.IsConst(); ok || !c.Equal(all) {
		return c
	}
	if n, ok := x.NumElems(); ok && n <= 1 {
		return c
	}
	s := a.newSym("an element moved", true, sym.NewProver(a.B, &a.Declared).Range(all), a.decide.Range(all), Origin{Kind: Derived, Index: -1})
	return a.B.Var(s)
}

// kept is a value with x's elements in the same order (Reshape, Squeeze,
// Unsqueeze) and new dims.
func (a *Analysis) kept(x *Value, t ir.ElementType, dims []sym.Expr) *Value {
	v := &Value{Type: t, Rank: -1, Shape: x.Shape, F: x.F}
	if dims != nil {
		v.Rank, v.Dims = len(dims), dims
	}
	if !x.Int || !isInt(t) {
		return v
	}
	// In a model that runs, the output holds as many elements as the
	// input, in the same order.
	v.Int, v.Elems, v.all = true, x.Elems, x.all
	return v
}

func normAxis(axis int64, rank int) (int, bool) {
	if axis < 0 {
		axis += int64(rank)
	}
	return int(axis), axis >= 0 && axis < int64(rank)
}

func (a *Analysis) gather(l *ir.Layer, ins []*Value, o *ops.Gather) *Value {
	if len(ins) < 3 || o.BatchDims != 0 {
		return nil
	}
	data, idx := ins[0], ins[1]
	axes, ok := constInts(ins[2])
	if !ok || len(axes) != 1 || data.Rank < 0 || idx.Rank < 0 {
		return nil
	}
	axis, ok := normAxis(axes[0], data.Rank)
	if !ok {
		return nil
	}
	dims := append(append(slices.Clone(data.Dims[:axis]), idx.Dims...), data.Dims[axis+1:]...)
	return a.moved(data, data.Type, dims)
}

// checkGather reports constant indices outside the axis they index, at
// the declared shapes: OpenVINO's Gather gives zeros there where ONNX
// Runtime fails, so the model has no one meaning.
func (a *Analysis) checkGather(l *ir.Layer, ins []*Value, o *ops.Gather) {
	data, idx := ins[0], ins[1]
	axes, ok := constInts(ins[2])
	dims, ok2 := data.ConstDims()
	is, ok3 := constInts(idx)
	if !ok || !ok2 || !ok3 || len(axes) != 1 || o.BatchDims != 0 {
		return
	}
	axis, ok := normAxis(axes[0], len(dims))
	if !ok {
		return
	}
	d := dims[axis]
	for _, i := range is {
		if i < -d || i >= d {
			a.issue(l, GatherIndex, "index %d is outside [%d, %d] of axis %d (dim %d): OpenVINO gives zeros there, ONNX Runtime fails", i, -d, d-1, axis, d)
			return
		}
	}
}

func (a *Analysis) concat(ins []*Value, axis int64, t ir.ElementType) *Value {
	if len(ins) == 0 || ins[0].Rank < 0 {
		return nil
	}
	r := ins[0].Rank
	ax, ok := normAxis(axis, r)
	if !ok {
		return nil
	}
	dims := slices.Clone(ins[0].Dims)
	sum := sym.Const(0)
	var parts []sym.Expr
	allInt := true
	for _, v := range ins {
		if v.Rank != r {
			return nil
		}
		sum = a.B.Add(sum, v.Dims[ax])
		allInt = allInt && v.Int
		if v.Int {
			parts = append(parts, a.B.Copy(a.All(v)))
		}
	}
	dims[ax] = sum
	v := &Value{Type: t, Rank: r, Dims: dims, Shape: shapeOperands(ins...)}
	for i, in := range ins {
		if i == 0 {
			v.F = in.F
		} else {
			v.F = unionF(v.F, in.F)
		}
	}
	if allInt && isInt(t) {
		v.Int, v.all = true, a.B.Select(parts...)
	}
	return v
}

func (a *Analysis) reshape(ins []*Value, specialZero bool, t ir.ElementType) *Value {
	x, p := ins[0], ins[1]
	if !p.Int || p.Elems == nil {
		return a.kept(x, t, nil)
	}
	dims := make([]sym.Expr, len(p.Elems))
	inferred := -1
	for i, e := range p.Elems {
		c, isConst := e.IsConst()
		switch {
		case isConst && c == 0 && specialZero:
			if x.Rank <= i {
				return a.kept(x, t, nil)
			}
			dims[i] = x.Dims[i]
		case isConst && c == -1:
			inferred = i
		default:
			dims[i] = e
		}
	}
	if inferred >= 0 {
		if x.Rank < 0 {
			return a.kept(x, t, nil)
		}
		total, rest := sym.Const(1), sym.Const(1)
		for _, d := range x.Dims {
			total = a.B.Mul(total, d)
		}
		for i, d := range dims {
			if i != inferred {
				rest = a.B.Mul(rest, d)
			}
		}
		dims[inferred] = a.B.Div(total, rest, true)
	}
	return a.kept(x, t, dims)
}

func (a *Analysis) squeeze(ins []*Value, info ops.ValueInfo, t ir.ElementType) *Value {
	x := ins[0]
	if x.Rank < 0 || info.Shape.DynamicRank {
		return a.kept(x, t, nil)
	}
	drop := make([]bool, x.Rank)
	if len(ins) > 1 {
		axes, ok := constInts(ins[1])
		if !ok {
			return a.kept(x, t, nil)
		}
		for _, ax := range axes {
			if i, ok := normAxis(ax, x.Rank); ok {
				drop[i] = true
			}
		}
	} else {
		for i, d := range x.Dims {
			drop[i] = isOne(d)
		}
	}
	var dims []sym.Expr
	for i, d := range x.Dims {
		if !drop[i] {
			dims = append(dims, d)
		}
	}
	if len(dims) != len(info.Shape.Dims) {
		// An axis whose dim is not 1 stays (OpenVINO keeps it): follow the
		// inference at the declared shapes.
		return a.kept(x, t, nil)
	}
	if dims == nil {
		dims = []sym.Expr{}
	}
	return a.kept(x, t, dims)
}

func (a *Analysis) unsqueeze(ins []*Value, t ir.ElementType) *Value {
	x := ins[0]
	if len(ins) < 2 || x.Rank < 0 {
		return a.kept(x, t, nil)
	}
	axes, ok := constInts(ins[1])
	if !ok {
		return a.kept(x, t, nil)
	}
	r := x.Rank + len(axes)
	ones := make([]bool, r)
	for _, ax := range axes {
		i, ok := normAxis(ax, r)
		if !ok {
			return a.kept(x, t, nil)
		}
		ones[i] = true
	}
	dims := make([]sym.Expr, 0, r)
	j := 0
	for i := range r {
		if ones[i] {
			dims = append(dims, sym.Const(1))
		} else if j < len(x.Dims) {
			dims = append(dims, x.Dims[j])
			j++
		}
	}
	return a.kept(x, t, dims)
}

func (a *Analysis) transpose(ins []*Value, t ir.ElementType) *Value {
	x := ins[0]
	if len(ins) < 2 || x.Rank < 0 {
		return a.moved(x, t, nil)
	}
	order, ok := constInts(ins[1])
	if !ok {
		return a.moved(x, t, nil)
	}
	if len(order) == 0 {
		for i := x.Rank - 1; i >= 0; i-- {
			order = append(order, int64(i))
		}
	}
	if len(order) != x.Rank {
		return nil
	}
	dims := make([]sym.Expr, x.Rank)
	for i, o := range order {
		j, ok := normAxis(o, x.Rank)
		if !ok {
			return nil
		}
		dims[i] = x.Dims[j]
	}
	return a.moved(x, t, dims)
}

func (a *Analysis) broadcast(ins []*Value, o *ops.Broadcast, t ir.ElementType) *Value {
	x, target := ins[0], ins[1]
	if o.Mode != ops.BroadcastNumpy && o.Mode != ops.BroadcastBidirectional || !target.Int || target.Elems == nil || x.Rank < 0 {
		return a.moved(x, t, nil)
	}
	r := max(len(target.Elems), x.Rank)
	if o.Mode == ops.BroadcastNumpy {
		r = len(target.Elems)
	}
	dims := make([]sym.Expr, r)
	for i := range r {
		ti, xi := i-(r-len(target.Elems)), i-(r-x.Rank)
		switch {
		case ti < 0:
			dims[i] = x.Dims[xi]
		case xi < 0 || o.Mode == ops.BroadcastNumpy:
			dims[i] = target.Elems[ti]
		case isOne(x.Dims[xi]):
			dims[i] = target.Elems[ti]
		case isOne(target.Elems[ti]) || x.Dims[xi].Equal(target.Elems[ti]):
			dims[i] = x.Dims[xi]
		default:
			dims[i] = a.B.Select(x.Dims[xi], target.Elems[ti])
		}
	}
	if sameDims(dims, x.Dims) {
		return a.kept(x, t, dims)
	}
	return a.moved(x, t, dims)
}

func (a *Analysis) tile(ins []*Value, t ir.ElementType) *Value {
	x := ins[0]
	reps, ok := constInts(ins[1])
	if !ok || x.Rank < 0 {
		return a.moved(x, t, nil)
	}
	r := max(len(reps), x.Rank)
	dims := make([]sym.Expr, r)
	for i := range r {
		d := sym.Const(1)
		if xi := i - (r - x.Rank); xi >= 0 {
			d = x.Dims[xi]
		}
		k := int64(1)
		if ri := i - (r - len(reps)); ri >= 0 {
			k = max(reps[ri], 0)
		}
		dims[i] = a.B.Scale(d, k)
	}
	return a.moved(x, t, dims)
}

// rangeOp: the length of Range with a constant step, and its elements
// start + step*i.
func (a *Analysis) rangeOp(l *ir.Layer, ins []*Value, t ir.ElementType) *Value {
	if len(ins) < 3 || !ins[0].Int || !ins[1].Int || !ins[2].Int || !isInt(t) {
		return nil
	}
	start, stop := a.All(ins[0]), a.All(ins[1])
	k, ok := a.All(ins[2]).IsConst()
	if !ok || k == 0 || k == math.MinInt64 {
		return nil
	}
	var n sym.Expr
	if k > 0 {
		n = a.B.Max(sym.Const(0), a.B.FloorDivK(a.B.Add(a.B.Sub(stop, start), sym.Const(k-1)), k))
	} else {
		n = a.B.Max(sym.Const(0), a.B.FloorDivK(a.B.Add(a.B.Sub(start, stop), sym.Const(-k-1)), -k))
	}
	i := a.B.Var(a.newSym("a Range index of "+describe(l), true, anyDim, anyDim, Origin{Kind: Derived, Layer: l, Index: -1}))
	return &Value{Type: t, Rank: 1, Dims: []sym.Expr{n}, Int: true, all: a.wrap(a.B.Add(start, a.B.Scale(i, k)), t)}
}

func (a *Analysis) split(ins []*Value, n int64, lengths []int64, infos []ops.ValueInfo) []*Value {
	x := ins[0]
	axes, ok := constInts(ins[1])
	if !ok || len(axes) != 1 || x.Rank < 0 || n <= 0 {
		return nil
	}
	ax, ok := normAxis(axes[0], x.Rank)
	if !ok {
		return nil
	}
	d := x.Dims[ax]
	parts := make([]sym.Expr, n)
	if lengths == nil {
		for i := range parts {
			parts[i] = a.B.FloorDivK(d, n)
		}
	} else {
		rest, inferred := d, -1
		for i, k := range lengths {
			if k == -1 {
				inferred = i
				continue
			}
			parts[i] = sym.Const(k)
			rest = a.B.Sub(rest, sym.Const(k))
		}
		if inferred >= 0 {
			parts[inferred] = rest
		}
	}
	out := make([]*Value, len(infos))
	for i := range out {
		t := infos[i].Type
		if int64(i) >= n {
			return nil
		}
		dims := slices.Clone(x.Dims)
		dims[ax] = parts[i]
		out[i] = a.moved(x, t, dims)
	}
	return out
}

// clampIndex is where an index lands on an axis of dim d: counted from the
// end when negative, clipped to [0, d] (or to [-1, d-1] for a negative
// step, which walks down).
func (a *Analysis) clampIndex(v, d sym.Expr, down bool) sym.Expr {
	lo, hi := sym.Const(0), d
	if down {
		lo, hi = sym.Const(-1), a.B.Add(d, sym.Const(-1))
	}
	clip := func(e sym.Expr) sym.Expr { return a.B.Min(a.B.Max(e, lo), hi) }
	if c, ok := v.IsConst(); ok {
		switch {
		case c == math.MaxInt64 || c >= 0 && !down:
			return clip(v)
		case c == math.MinInt64:
			return lo
		case c >= 0:
			return clip(v)
		}
		return clip(a.B.Add(d, v))
	}
	return a.B.Select(clip(v), clip(a.B.Add(d, v)))
}

// sliceLen is the length of start:stop:step on an axis of dim d.
func (a *Analysis) sliceLen(d, start, stop sym.Expr, step int64) sym.Expr {
	if step > 0 {
		s, e := a.clampIndex(start, d, false), a.clampIndex(stop, d, false)
		return a.B.Max(sym.Const(0), a.B.FloorDivK(a.B.Add(a.B.Sub(e, s), sym.Const(step-1)), step))
	}
	s, e := a.clampIndex(start, d, true), a.clampIndex(stop, d, true)
	return a.B.Max(sym.Const(0), a.B.FloorDivK(a.B.Add(a.B.Sub(s, e), sym.Const(-step-1)), -step))
}

func (a *Analysis) slice(ins []*Value, t ir.ElementType) *Value {
	x := ins[0]
	if len(ins) < 4 || x.Rank < 0 || ins[1].Elems == nil || ins[2].Elems == nil {
		return a.moved(x, t, nil)
	}
	steps, ok := constInts(ins[3])
	if !ok || len(steps) != len(ins[1].Elems) || len(steps) != len(ins[2].Elems) {
		return a.moved(x, t, nil)
	}
	axes := make([]int64, len(steps))
	for i := range axes {
		axes[i] = int64(i)
	}
	if len(ins) > 4 {
		if axes, ok = constInts(ins[4]); !ok || len(axes) != len(steps) {
			return a.moved(x, t, nil)
		}
	}
	dims := slices.Clone(x.Dims)
	for i, ax := range axes {
		j, ok := normAxis(ax, x.Rank)
		if !ok || steps[i] == 0 || steps[i] == math.MinInt64 {
			return a.moved(x, t, nil)
		}
		dims[j] = a.sliceLen(x.Dims[j], ins[1].Elems[i], ins[2].Elems[i], steps[i])
	}
	return a.moved(x, t, dims)
}

func bit(mask []int64, i int) bool { return i < len(mask) && mask[i] != 0 }

func (a *Analysis) stridedSlice(ins []*Value, o *ops.StridedSlice, t ir.ElementType) *Value {
	x := ins[0]
	if x.Rank < 0 || slices.Contains(o.EllipsisMask, 1) || slices.Contains(o.NewAxisMask, 1) ||
		ins[1].Elems == nil || ins[2].Elems == nil || len(ins[1].Elems) > x.Rank {
		return a.moved(x, t, nil)
	}
	k := len(ins[1].Elems)
	steps := make([]int64, k)
	for i := range steps {
		steps[i] = 1
	}
	if len(ins) > 3 {
		var ok bool
		if steps, ok = constInts(ins[3]); !ok || len(steps) != k {
			return a.moved(x, t, nil)
		}
	}
	var dims []sym.Expr
	for j, d := range x.Dims {
		if j >= k {
			dims = append(dims, d)
			continue
		}
		if bit(o.ShrinkAxisMask, j) {
			continue
		}
		if steps[j] == 0 || steps[j] == math.MinInt64 {
			return a.moved(x, t, nil)
		}
		start, stop := ins[1].Elems[j], ins[2].Elems[j]
		if bit(o.BeginMask, j) {
			start = sym.Const(0)
			if steps[j] < 0 {
				start = sym.Const(math.MaxInt64)
			}
		}
		if bit(o.EndMask, j) {
			stop = sym.Const(math.MaxInt64)
			if steps[j] < 0 {
				stop = sym.Const(math.MinInt64)
			}
		}
		dims = append(dims, a.sliceLen(d, start, stop, steps[j]))
	}
	if dims == nil {
		dims = []sym.Expr{}
	}
	return a.moved(x, t, dims)
}

func (a *Analysis) reduce(l *ir.Layer, ins []*Value, o *ops.Reduce, t ir.ElementType) *Value {
	x := ins[0]
	axes, ok := constInts(ins[1])
	if !ok || x.Rank < 0 {
		return nil
	}
	red := make([]bool, x.Rank)
	for _, ax := range axes {
		i, ok := normAxis(ax, x.Rank)
		if !ok {
			return nil
		}
		red[i] = true
	}
	var dims []sym.Expr
	for i, d := range x.Dims {
		switch {
		case !red[i]:
			dims = append(dims, d)
		case o.KeepDims:
			dims = append(dims, sym.Const(1))
		}
	}
	if dims == nil {
		dims = []sym.Expr{}
	}
	v := &Value{Type: t, Rank: len(dims), Dims: dims, Shape: x.Shape}
	if o.Kind == ops.ReduceMax || o.Kind == ops.ReduceMin {
		v.F = x.F
	}
	a.shape = x.Shape
	defer func() { a.shape = false }()
	xDims, constDims := x.ConstDims()
	if constDims {
		v.Static = []int64{}
		for i, d := range xDims {
			switch {
			case !red[i]:
				v.Static = append(v.Static, d)
			case o.KeepDims:
				v.Static = append(v.Static, 1)
			}
		}
	}
	if !x.Int || !isInt(t) {
		return v
	}
	v.Int = true
	n, known := v.NumElems()
	if !constDims || x.Elems == nil || !known || n > MaxElems {
		v.all = a.fresh(l, typeRange(t), "a reduction")
		return v
	}
	groups := make([][]sym.Expr, n)
	coord := make([]int64, len(xDims))
	for flat := range x.Elems {
		rem := flat
		for i := len(xDims) - 1; i >= 0; i-- {
			coord[i] = int64(rem) % xDims[i]
			rem /= int(xDims[i])
		}
		out := 0
		for i, c := range coord {
			if !red[i] {
				out = out*int(xDims[i]) + int(c)
			}
		}
		groups[out] = append(groups[out], x.Elems[flat])
	}
	v.Elems = make([]sym.Expr, n)
	for i, g := range groups {
		v.Elems[i] = a.combine(l, o.Kind, g, t)
	}
	return v
}

func (a *Analysis) combine(l *ir.Layer, k ops.ReduceKind, g []sym.Expr, t ir.ElementType) sym.Expr {
	switch k {
	case ops.ReduceSum, ops.ReduceMean:
		s := sym.Const(0)
		for _, e := range g {
			s = a.B.Add(s, e)
		}
		if k == ops.ReduceMean {
			if len(g) == 0 {
				return a.fresh(l, typeRange(t), "an empty mean")
			}
			s = a.B.Div(s, sym.Const(int64(len(g))), false)
		}
		return a.wrap(s, t)
	case ops.ReduceProd:
		p := sym.Const(1)
		for _, e := range g {
			p = a.B.Mul(p, e)
		}
		return a.wrap(p, t)
	case ops.ReduceMin:
		if len(g) == 0 {
			return sym.Const(typeRange(t).Hi.V)
		}
		return a.B.Min(g...)
	case ops.ReduceMax:
		if len(g) == 0 {
			return sym.Const(typeRange(t).Lo.V)
		}
		return a.B.Max(g...)
	}
	return a.fresh(l, typeRange(t), "a reduction")
}

func (a *Analysis) matmul(ins []*Value, o *ops.MatMul, t ir.ElementType) *Value {
	x, y := ins[0], ins[1]
	if x.Rank < 1 || y.Rank < 1 {
		return nil
	}
	xd, yd := slices.Clone(x.Dims), slices.Clone(y.Dims)
	if len(xd) == 1 {
		xd = []sym.Expr{sym.Const(1), xd[0]}
	} else if o.TransposeA {
		xd[len(xd)-1], xd[len(xd)-2] = xd[len(xd)-2], xd[len(xd)-1]
	}
	if len(yd) == 1 {
		yd = []sym.Expr{yd[0], sym.Const(1)}
	} else if o.TransposeB {
		yd[len(yd)-1], yd[len(yd)-2] = yd[len(yd)-2], yd[len(yd)-1]
	}
	batch, ok := a.broadcastDims(&Value{Rank: len(xd) - 2, Dims: xd[:len(xd)-2]}, &Value{Rank: len(yd) - 2, Dims: yd[:len(yd)-2]}, shapeinfer.Broadcast{Mode: shapeinfer.Numpy})
	if !ok {
		return nil
	}
	dims := batch
	if x.Rank > 1 {
		dims = append(dims, xd[len(xd)-2])
	}
	if y.Rank > 1 {
		dims = append(dims, yd[len(yd)-1])
	}
	v := &Value{Type: t, Rank: len(dims), Dims: dims}
	return v
}

func (a *Analysis) pad(ins []*Value, t ir.ElementType) *Value {
	x := ins[0]
	if len(ins) < 3 || x.Rank < 0 || ins[1].Elems == nil || ins[2].Elems == nil || len(ins[1].Elems) != x.Rank || len(ins[2].Elems) != x.Rank {
		return nil
	}
	dims := make([]sym.Expr, x.Rank)
	for i, d := range x.Dims {
		dims[i] = a.B.Add(a.B.Add(d, ins[1].Elems[i]), ins[2].Elems[i])
	}
	v := a.moved(x, t, dims)
	if v.Int {
		fill := sym.Const(0)
		if len(ins) > 3 && ins[3].Int {
			fill = a.All(ins[3])
		}
		v.all = a.B.Select(v.all, fill)
	}
	return v
}

func (a *Analysis) interpolate(ins []*Value, o *ops.Interpolate, infos []ops.ValueInfo, t ir.ElementType) *Value {
	x := ins[0]
	if x.Rank < 0 || o.Version != 11 || len(ins) < 2 {
		return nil
	}
	axes := make([]int64, x.Rank)
	for i := range axes {
		axes[i] = int64(i)
	}
	if len(ins) > 2 {
		var ok bool
		if axes, ok = constInts(ins[2]); !ok {
			return nil
		}
	}
	dims := slices.Clone(x.Dims)
	for i := range dims {
		if i < len(o.PadsBegin) {
			dims[i] = a.B.Add(dims[i], sym.Const(o.PadsBegin[i]))
		}
		if i < len(o.PadsEnd) {
			dims[i] = a.B.Add(dims[i], sym.Const(o.PadsEnd[i]))
		}
	}
	target := ins[1]
	for k, ax := range axes {
		j, ok := normAxis(ax, x.Rank)
		if !ok {
			return nil
		}
		switch {
		case o.ShapeCalculationMode == "sizes" && target.Int && target.Elems != nil && k < len(target.Elems):
			dims[j] = target.Elems[k]
		case o.ShapeCalculationMode == "scales" && target.Tensor != nil && k < target.Tensor.Len():
			s := target.Tensor.Float64At(k)
			if s != math.Trunc(s) || s < 1 || s > 1<<20 {
				return nil
			}
			dims[j] = a.B.Scale(dims[j], int64(s))
		default:
			return nil
		}
	}
	return &Value{Type: t, Rank: len(dims), Dims: dims}
}

// spatial applies the affine rules of convolutions and poolings (ops'
// SpatialRules) to symbolic dims; the batch dim follows the data, the
// channels come from the inference (the weights decide them).
func (a *Analysis) spatial(l *ir.Layer, s ops.Spatial, ins []*Value, infos []ops.ValueInfo) []*Value {
	x := ins[0]
	if x.Rank < 2 || len(infos) == 0 || infos[0].Shape.DynamicRank || len(infos[0].Shape.Dims) != x.Rank {
		return nil
	}
	inInfos := make([]ops.ValueInfo, len(ins))
	for i, src := range a.Sources[l] {
		if src.Layer != nil && i < len(inInfos) {
			inInfos[i] = a.Infos[src.Layer][src.Index]
			if ins[i].Tensor != nil {
				inInfos[i].Value = ins[i].Tensor
			}
		}
	}
	rules, err := s.SpatialRules(inInfos)
	if err != nil {
		return nil
	}
	dims := make([]sym.Expr, x.Rank)
	dims[0] = x.Dims[0]
	ch := infos[0].Shape.Dims[1]
	if ch.IsStatic() {
		dims[1] = sym.Const(ch.Min)
	} else {
		dims[1] = a.opaque(l, 0, infos[0]).Dims[1]
	}
	for i := 2; i < x.Rank; i++ {
		dims[i] = x.Dims[i]
	}
	for _, r := range rules {
		if r.Axis < 0 || r.Axis >= x.Rank || r.Div <= 0 {
			return nil
		}
		if r.CeilTorch {
			dims[r.Axis] = a.opaque(l, 0, infos[0]).Dims[r.Axis]
			continue
		}
		in := dims[r.Axis]
		if r.Axis >= 2 {
			in = x.Dims[r.Axis]
		}
		dims[r.Axis] = a.B.Add(a.B.FloorDivK(a.B.Add(a.B.Scale(in, r.Mul), sym.Const(r.Add)), r.Div), sym.Const(r.Off))
	}
	out := make([]*Value, len(infos))
	for i, info := range infos {
		out[i] = &Value{Type: info.Type, Rank: x.Rank, Dims: dims}
		if isInt(info.Type) {
			out[i].Int, out[i].all = true, a.fresh(l, typeRange(info.Type), "pooling indices")
		}
	}
	return out
}
