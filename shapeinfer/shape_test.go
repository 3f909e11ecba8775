package shapeinfer

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestDimString(t *testing.T) {
	for _, tc := range []struct {
		d    Dim
		want string
	}{
		{Static(3), "3"}, {Static(0), "0"}, {Dynamic(), "?"}, {Interval(1, 10), "1..10"},
		{Interval(6, -1), "6.."}, {Interval(0, 10), "..10"}, {Interval(-1, -1), "?"},
	} {
		if got := tc.d.String(); got != tc.want {
			t.Errorf("%#v.String() = %q, want %q", tc.d, got, tc.want)
		}
	}
}

func TestParseDim(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Dim
		err  string
	}{
		{in: "3", want: Static(3)},
		{in: " 7 ", want: Static(7)},
		{in: "?", want: Dynamic()},
		{in: "-1", want: Dynamic()},
		{in: "1..10", want: Interval(1, 10)},
		{in: "..200", want: Interval(0, 200)},
		{in: "120..", want: Interval(120, -1)},
		{in: "1s", err: `Cannot parse dimension: "1s"`},
		{in: "-2", err: `Cannot parse dimension: "-2"`},
		{in: "x..3", err: `Cannot parse min bound: "x"`},
		{in: "1..g", err: `Cannot parse max bound: "g"`},
		{in: "9..3", err: "min bound above max bound"},
	} {
		got, err := ParseDim(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseDim(%q) error = %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("ParseDim(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

func TestParseShape(t *testing.T) {
	for _, tc := range []struct{ in, want, err string }{
		{in: "1,3,224,224", want: "[1,3,224,224]"},
		{in: "1, 1, 512, 512", want: "[1,1,512,512]"},
		{in: "[1,?]", want: "[1,?]"},
		{in: "", want: "[]"},
		{in: "[]", want: "[]"},
		{in: "...", want: "[...]"},
		{in: "?,3,?,?", want: "[?,3,?,?]"},
		{in: "1,3,100..200,120..320", want: "[1,3,100..200,120..320]"},
		{in: "1,?,..200,120..", want: "[1,?,..200,120..]"},
		{in: "-1,2,-1", want: "[?,2,?]"},
		{in: "...,...", err: "must stand alone"},
		{in: "1,...,2", err: "must stand alone"},
		{in: "1s,2", err: `Cannot parse dimension: "1s"`},
		{in: "1..g,2", err: `Cannot parse max bound: "g"`},
		{in: "1,,2", err: `Cannot get vector of dimensions! "1,,2" is incorrect`},
	} {
		got, err := ParseShape(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseShape(%q) error = %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || got.String() != tc.want {
			t.Errorf("ParseShape(%q) = %v, %v; want %s", tc.in, got, err, tc.want)
		}
	}
}

// TestBroadcastMergeTable is the dimension table of divide-spec.md E.1.
func TestBroadcastMergeTable(t *testing.T) {
	for _, tc := range []struct{ d1, d2, want string }{
		{"1..3", "2..7", "2..7"}, {"1..3", "?", "?"}, {"?", "1..3", "?"}, {"4..8", "1", "4..8"},
		{"1", "4..8", "4..8"}, {"?", "?", "?"}, {"?", "3", "3"}, {"?", "1", "?"},
		{"2..4", "?", "2..4"}, {"1..6", "5..8", "5..8"}, {"2..6", "5..8", "5..6"}, {"8..16", "4..12", "8..12"},
		{"8..16", "16..24", "16"}, {"2..4", "2..4", "2..4"}, {"3", "4", "FAIL"}, {"12", "19", "FAIL"},
		{"0", "1", "0"}, {"1", "0", "0"},
	} {
		d1, _ := ParseDim(tc.d1)
		d2, _ := ParseDim(tc.d2)
		got, ok := BroadcastMerge(d1, d2)
		gotS := got.String()
		if !ok {
			gotS = "FAIL"
		}
		if gotS != tc.want {
			t.Errorf("BroadcastMerge(%s, %s) = %s, want %s", tc.d1, tc.d2, gotS, tc.want)
		}
	}
}

func TestMergeDim(t *testing.T) {
	got, ok := Merge(Interval(1, 3), Interval(2, 7))
	if !ok || got.String() != "2..3" {
		t.Errorf("Merge(1..3, 2..7) = %v, %v", got, ok)
	}
	if _, ok := Merge(Static(3), Static(4)); ok {
		t.Error("Merge(3, 4) succeeded")
	}
}

func pdpd(axis int64) Broadcast { return Broadcast{Mode: PDPD, Axis: axis} }

var (
	none  = Broadcast{Mode: None}
	numpy = Broadcast{Mode: Numpy}
)

// TestElementwise holds every row of divide-spec.md F.1 (type propagation),
// the numpy examples of E.3 and the pdpd examples of E.4. want "THROW" means
// the inference must fail with OpenVINO's "Argument shapes are inconsistent.".
func TestElementwise(t *testing.T) {
	const throw = "THROW"
	for _, tc := range []struct {
		name string
		a, b string
		bc   Broadcast
		want string
	}{
		{"default_constructor/none", "?,4,1,6,1..6,2..6", "?,1,5,6,5..8,5..8", none, throw},
		{"default_constructor/numpy", "?,4,1,6,1..6,2..6", "?,1,5,6,5..8,5..8", numpy, "[?,4,5,6,5..8,5..6]"},
		{"shape_inference_2D", "2,2", "2,2", numpy, "[2,2]"},
		{"shape_inference_4D", "2,2,3,3", "2,2,3,3", numpy, "[2,2,3,3]"},
		{"default_autobroadcast", "2,2", "2,2", numpy, "[2,2]"},
		{"no_autobroadcast", "2,2", "2,2", none, "[2,2]"},
		{"4D_x_scalar_numpy", "2,3,4,5", "1", numpy, "[2,3,4,5]"},
		{"4D_x_1D_numpy", "2,3,4,5", "5", numpy, "[2,3,4,5]"},
		{"2D_x_4D_numpy", "4,5", "2,3,4,5", numpy, "[2,3,4,5]"},
		{"3D_x_4D_numpy", "1,4,5", "2,3,1,1", numpy, "[2,3,4,5]"},
		{"4D_x_3D_numpy", "8,1,6,1", "7,1,5", numpy, "[8,7,6,5]"},
		{"pdpd_doc_1", "2,3,4,5", "3,4", pdpd(1), "[2,3,4,5]"},
		{"pdpd_doc_2", "2,3,4,5", "3,1", pdpd(1), "[2,3,4,5]"},
		{"pdpd_doc_3", "2,3,4,5", "", pdpd(-1), "[2,3,4,5]"},
		{"pdpd_doc_4", "2,3,4,5", "5", pdpd(3), "[2,3,4,5]"},
		{"pdpd_doc_5", "2,3,4,5", "1,3", pdpd(0), "[2,3,4,5]"},
		{"pdpd_doc_6", "2,3,4,5", "3,1,5", pdpd(1), "[2,3,4,5]"},
		{"4D_x_4D_pdpd/a", "8,1,6,5", "8,1,6,5", pdpd(-1), "[8,1,6,5]"},
		{"4D_x_4D_pdpd/b", "8,7,6,5", "8,1,6,5", pdpd(-1), "[8,7,6,5]"},
		{"4D_x_3D_ax_default_pdpd", "8,7,6,5", "7,1,5", pdpd(-1), "[8,7,6,5]"},
		{"1D_x_1D_incompatible", "3", "4", numpy, throw},
		{"3D_x_3D_incompatible", "3,5,6", "4,10,12", numpy, throw},
		{"5D_x_5D_incompatible", "389,112,12", "389,112,19", numpy, throw},
		{"axis_less_than_-1_pdpd", "2,3,4,5", "3,1", pdpd(-2), throw},
		{"dst_smaller_than_src_pdpd", "2,3,4,1", "2,3,4,5", pdpd(-1), throw},
		{"fully_dynamic_numpy", "...", "...", numpy, "[...]"},
		{"fully_dynamic_none", "...", "...", none, "[...]"},
		{"fully_dynamic_pdpd", "...", "...", pdpd(-1), "[...]"},
		{"dynamic_shape_3D", "?,?,6", "?,?,6", numpy, "[?,?,6]"},
		{"dynamic_shape_5D", "?,4,?,?,6", "?,4,?,?,6", numpy, "[?,4,?,?,6]"},
		{"intervals_none", "1..3,2..7,6..,..6,?,8", "1..3,2..7,6..,..6,?,8", none, "[1..3,2..7,6..,..6,?,8]"},
		{"intervals_equal_rank_numpy", "1..3,1..3,1..3,4..8,?,1,?,1,3", "1..3,2..7,?,1,1..3,4..8,?,1,3", numpy, "[1..3,2..7,?,4..8,?,4..8,?,1,3]"},
		{"intervals_a_rank_smaller_numpy", "1..3,4..8,?,1,?,1,3", "1..3,2..7,?,1,1..3,4..8,?,1,3", numpy, "[1..3,2..7,?,4..8,?,4..8,?,1,3]"},
		{"intervals_b_rank_smaller_numpy", "1..3,2..7,?,1,1..3,4..8,?,1,3", "1..3,4..8,?,1,?,1,3", numpy, "[1..3,2..7,?,4..8,?,4..8,?,1,3]"},
		{"intervals_pdpd_1", "1..3,2..7,1..6,?,8", "1..3,2..7,1,?,8", pdpd(-1), "[1..3,2..7,1..6,?,8]"},
		{"intervals_pdpd_2", "1..3,1..3,1..3,4..8,?,1,?,1,3", "1..3,2..7,?,1,1..3,4..8,?,1,3", pdpd(0), "[1..3,2..7,?,4..8,?,4..8,?,1,3]"},
		{"intervals_pdpd_3_numpy", "1..3,2..7,?,1,1..3,4..8,?,1,3", "1..3,4..8,?,1,?,1,3", numpy, "[1..3,2..7,?,4..8,?,4..8,?,1,3]"},
		{"symbols_mixed", "?,3,1,2..128", "?,3,2..224,1", numpy, "[?,3,2..224,2..128]"},
		{"symbols_interval_b_fully_dyn_a", "?,3,224,1", "2..4,3,1,224", numpy, "[2..4,3,224,224]"},
		{"symbols_interval_a_fully_dyn_b", "2..4,3,224,1", "?,3,1,224", numpy, "[2..4,3,224,224]"},
		{"symbols_interval_dims_without_one", "2..4,8..16,8..16,8..16", "2..4,4..12,10..12,16..24", numpy, "[2..4,8..12,10..12,16]"},
		{"symbols_fully_dynamic_batch", "?,3,224,1", "?,3,1,224", numpy, "[?,3,224,224]"},
		{"symbols_dyn_batch_a", "?,3,224,224", "1,3,1,1", numpy, "[?,3,224,224]"},
		{"symbols_dyn_batch_b", "1,3,1,1", "?,3,224,224", numpy, "[?,3,224,224]"},
		{"symbols_dyn_batch_higher_rank_a", "?,?,?,?", "3,1,1", numpy, "[?,3,?,?]"},
		{"symbols_dyn_batch_higher_rank_b", "3,1,1", "?,?,?,?", numpy, "[?,3,?,?]"},
		{"symbols_static", "2,1,224,1", "2,1,1,128", numpy, "[2,1,224,128]"},
		{"symbols_static_none", "2,3,224,128", "2,3,224,128", none, "[2,3,224,128]"},
		{"symbols_dynamic_none", "?,3,2..224,1..128", "?,3,2..224,1..128", none, "[?,3,2..224,1..128]"},
		{"binary_elementwise_2x4_4x2", "2,4", "4,2", numpy, throw},
		// none: merge_into semantics.
		{"none_dynamic_merges", "?", "3", none, "[3]"},
		{"none_interval_merge", "1..3", "2..7", none, "[2..3]"},
		{"none_rank_a_dynamic", "...", "2,3", none, "[2,3]"},
		{"none_rank_mismatch", "2,3", "3", none, throw},
		// divide-spec.md E.3.
		{"E3_scalars", "", "", numpy, "[]"},
		{"E3_2x3_1", "2,3", "1", numpy, "[2,3]"},
		{"E3_3_2x3", "3", "2,3", numpy, "[2,3]"},
		{"E3_2x3x5_scalar", "2,3,5", "", numpy, "[2,3,5]"},
		{"E3_2x1x5_1x4x5", "2,1,5", "1,4,5", numpy, "[2,4,5]"},
		{"E3_6x5_2x1x5", "6,5", "2,1,5", numpy, "[2,6,5]"},
		{"E3_2x1x5_4x1", "2,1,5", "4,1", numpy, "[2,4,5]"},
		{"E3_3x2x1x4_5x4", "3,2,1,4", "5,4", numpy, "[3,2,5,4]"},
		{"E3_1x5x3_5x2x1x3", "1,5,3", "5,2,1,3", numpy, "[5,2,5,3]"},
		{"E3_3_2", "3", "2", numpy, throw},
		{"E3_3x1x5_4x4x5", "3,1,5", "4,4,5", numpy, throw},
		{"E3_zero_size", "3,1", "3,0", numpy, "[3,0]"},
		// divide-spec.md E.4 (A = 2,3,4,5).
		{"E4_4x5_ax-1", "2,3,4,5", "4,5", pdpd(-1), "[2,3,4,5]"},
		{"E4_4x5_ax2", "2,3,4,5", "4,5", pdpd(2), "[2,3,4,5]"},
		{"E4_5_ax-1", "2,3,4,5", "5", pdpd(-1), "[2,3,4,5]"},
		{"E4_8x1x6x1_7x1x5_ax1", "8,1,6,1", "7,1,5", pdpd(1), throw},
		{"E4_3x1_ax-2", "2,3,4,5", "3,1", pdpd(-2), throw},
		{"E4_trailing_one_not_trimmed", "2,3", "3,1", pdpd(1), throw},
		{"pdpd_dynamic_a_stretched", "2,?", "5", pdpd(-1), "[2,5]"},
		{"pdpd_one_a_dynamic_b", "2,1", "?", pdpd(-1), "[2,?]"},
		{"pdpd_static_one_a", "2,1", "5", pdpd(-1), throw},
		// Axes near the int64 limits must fail, not overflow rank(B)+axis.
		{"pdpd_axis_max", "2,3", "3", pdpd(math.MaxInt64), throw},
		{"pdpd_axis_max_minus_rank", "2,3", "3", pdpd(math.MaxInt64 - 1), throw},
		{"pdpd_axis_min", "2,3", "3", pdpd(math.MinInt64), throw},
		{"pdpd_axis_past_end", "2,3", "3", pdpd(2), throw},
		{"pdpd_axis_last", "2,3", "3", pdpd(1), "[2,3]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Elementwise(MustParseShape(tc.a), MustParseShape(tc.b), tc.bc)
			if tc.want == throw {
				if !errors.Is(err, ErrShape) || !strings.Contains(err.Error(), "Argument shapes are inconsistent.") {
					t.Fatalf("Elementwise = %v, %v; want the inconsistent-shapes error", got, err)
				}
				return
			}
			if err != nil || got.String() != tc.want {
				t.Fatalf("Elementwise(%s, %s, %s) = %v, %v; want %s", tc.a, tc.b, tc.bc, got, err, tc.want)
			}
		})
	}
}

func TestParseMode(t *testing.T) {
	for in, want := range map[string]Mode{"none": None, "EXPLICIT": None, "NumPy": Numpy, "pdpd": PDPD} {
		if got, err := ParseMode(in); err != nil || got != want {
			t.Errorf("ParseMode(%q) = %v, %v", in, got, err)
		}
	}
	_, err := ParseMode("bidirectional")
	if err == nil || !strings.Contains(err.Error(), `"bidirectional" is not a member of enum ov::op::AutoBroadcastType`) {
		t.Errorf("ParseMode(bidirectional) error = %v", err)
	}
}

func TestShapeCompatible(t *testing.T) {
	s := MustParseShape("?,3,2..224")
	if !s.Compatible([]int64{5, 3, 224}) || s.Compatible([]int64{5, 3, 225}) || s.Compatible([]int64{5, 3}) {
		t.Errorf("Compatible misjudges %v", s)
	}
}

func TestBroadcastIndex(t *testing.T) {
	// Output [2,3,4]; operand [3,1] aligned at offset 1 (numpy): element
	// (1,2,3) reads operand (2,0), flat 2.
	if got := BroadcastIndex([]int64{1, 2, 3}, []int64{3, 1}, 1); got != 2 {
		t.Errorf("numpy: got %d, want 2", got)
	}
	// Operand [2,1,4] at offset 0: (1,2,3) reads (1,0,3), flat 7.
	if got := BroadcastIndex([]int64{1, 2, 3}, []int64{2, 1, 4}, 0); got != 7 {
		t.Errorf("got %d, want 7", got)
	}
	// pdpd: operand [3] at axis 1: (1,2,3) reads (2).
	if got := BroadcastIndex([]int64{1, 2, 3}, []int64{3}, 1); got != 2 {
		t.Errorf("pdpd: got %d, want 2", got)
	}
}
