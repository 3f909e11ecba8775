package ops

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/shapeinfer"
)

// attrs reads a layer's <data> attributes as OpenVINO's XmlDeserializer
// does: an absent attribute keeps the op's default, numbers are read as
// C++'s istringstream reads them (leading space, a sign and digits; what
// cannot be read is 0), lists are comma-separated, booleans are
// true/false/1/0 in any case (anything else keeps the default), and enums
// are matched case-insensitively, an unknown value being an error in
// OpenVINO's words.
type attrs struct{ l *ir.Layer }

func (a attrs) str(name, def string) string {
	if s, ok := a.l.DataAttr(name); ok {
		return s
	}
	return def
}

func (a attrs) int(name string, def int64) int64 {
	if s, ok := a.l.DataAttr(name); ok {
		return parseIntLikeIstream(s)
	}
	return def
}

func (a attrs) float(name string, def float64) float64 {
	if s, ok := a.l.DataAttr(name); ok {
		return parseFloatLikeIstream(s)
	}
	return def
}

func (a attrs) bool(name string, def bool) bool {
	if s, ok := a.l.DataAttr(name); ok {
		switch strings.ToLower(s) {
		case "true", "1":
			return true
		case "false", "0":
			return false
		}
	}
	return def
}

// ints reads a comma-separated list; absent or empty, it is nil.
func (a attrs) ints(name string) []int64 {
	s, ok := a.l.DataAttr(name)
	if !ok || strings.TrimSpace(s) == "" {
		return nil
	}
	parts := strings.Split(s, ",")
	v := make([]int64, len(parts))
	for i, p := range parts {
		v[i] = parseIntLikeIstream(p)
	}
	return v
}

// enum reads one of names (matched case-insensitively) and returns its
// index; def when absent.
func (a attrs) enum(name, enumType string, names []string, def int) (int, error) {
	s, ok := a.l.DataAttr(name)
	if !ok {
		return def, nil
	}
	for i, n := range names {
		if strings.EqualFold(s, n) {
			return i, nil
		}
	}
	return 0, errorf("%w: %q is not a member of enum %s (%s must be one of %s)", ErrAttribute, s, enumType, name, strings.Join(names, ", "))
}

func (a attrs) elementType(name string, def ir.ElementType) (ir.ElementType, error) {
	s, ok := a.l.DataAttr(name)
	if !ok {
		return def, nil
	}
	t, err := ir.ParseElementType(s)
	if err != nil {
		return 0, errorf("%w: %s: %w", ErrAttribute, name, err)
	}
	return t, nil
}

// broadcast reads auto_broadcast (with the pdpd axis) with the default
// def, as Divide does.
func (a attrs) broadcast(def shapeinfer.Mode) (shapeinfer.Broadcast, error) {
	bc := shapeinfer.Broadcast{Mode: def}
	if s, ok := a.l.DataAttr("auto_broadcast"); ok {
		mode, err := shapeinfer.ParseMode(s)
		if err != nil {
			return bc, err
		}
		bc.Mode = mode
	}
	if bc.Mode == shapeinfer.PDPD {
		bc.Axis = a.int(AxisAttr, -1)
	}
	return bc, nil
}

// parseFloatLikeIstream reads a double as istringstream >> does: leading
// space, then the longest decimal number; "inf", "nan" and anything
// unreadable are 0.
func parseFloatLikeIstream(s string) float64 {
	s = strings.TrimLeft(s, " \t\n\r\v\f")
	end := 0
	digits := func() int {
		n := 0
		for end < len(s) && s[end] >= '0' && s[end] <= '9' {
			end, n = end+1, n+1
		}
		return n
	}
	if end < len(s) && (s[end] == '-' || s[end] == '+') {
		end++
	}
	n := digits()
	if end < len(s) && s[end] == '.' {
		end++
		n += digits()
	}
	if n == 0 {
		return 0
	}
	if end < len(s) && (s[end] == 'e' || s[end] == 'E') {
		save := end
		end++
		if end < len(s) && (s[end] == '-' || s[end] == '+') {
			end++
		}
		if digits() == 0 {
			end = save
		}
	}
	v, err := strconv.ParseFloat(s[:end], 64)
	if err != nil {
		return 0
	}
	return v
}

// Writing, in the serializer's formats.

func formatInts(v []int64) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = strconv.FormatInt(x, 10)
	}
	return strings.Join(parts, ",")
}

// formatFloat writes a double as pugixml does (%.17g): 6 for 6.0,
// 9.9999997473787516e-06 for float(1e-5).
func formatFloat(f float64) string { return strconv.FormatFloat(f, 'g', 17, 64) }

func formatBool(b bool) string { return strconv.FormatBool(b) }

func attr(name, value string) ir.Attr { return ir.Attr{Name: name, Value: value} }

// broadcastAttrs writes auto_broadcast, with the pdpd axis when needed.
func broadcastAttrs(bc shapeinfer.Broadcast) []ir.Attr {
	attrs := []ir.Attr{attr("auto_broadcast", bc.Mode.String())}
	if bc.Mode == shapeinfer.PDPD {
		attrs = append(attrs, attr(AxisAttr, strconv.FormatInt(bc.Axis, 10)))
	}
	return attrs
}

// inputCount checks the number of inputs against [lo, hi].
func inputCount(in []ValueInfo, lo, hi int) error {
	if len(in) >= lo && len(in) <= hi {
		return nil
	}
	if lo == hi {
		return errorf("%w: Incorrect number of inputs. Required: %d, got %d", ir.ErrGraph, lo, len(in))
	}
	return errorf("%w: Incorrect number of inputs. Required: %d to %d, got %d", ir.ErrGraph, lo, hi, len(in))
}

// versionNumber returns the N of "opsetN" for messages ("Gather-8").
func versionNumber(version string) string {
	return strings.TrimPrefix(version, "opset")
}

func opset(v int) string { return fmt.Sprintf("opset%d", v) }
