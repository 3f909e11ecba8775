package ir

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
)

// Default caps of ReadOptions. The largest model in the real-model corpus
// irdiv is tested on has about 6,500 layers, 127,000 XML elements and
// 94,000 attributes in 2.7 MB of XML; every default is 18 times that or more.
const (
	DefaultMaxXMLBytes = 256 << 20
	DefaultMaxDepth    = 256
	DefaultMaxNodes    = 1 << 22
	DefaultMaxLayers   = 1 << 18
	DefaultMaxPorts    = 1 << 20
	DefaultMaxEdges    = 1 << 20
)

// ReadOptions configure Read and ReadBytes. The zero value is safe: every
// cap left at 0 takes its default. Reading checks the caps while it scans
// the XML, before it builds anything, so peak memory is bounded by them
// (about 250 bytes per node) and by the size of the file.
type ReadOptions struct {
	// WeightsPath is the .bin file; "" means the .xml path with its
	// extension replaced by .bin, which may be absent.
	WeightsPath string
	// SkipWeights reads no Const values: offsets and sizes are still
	// checked against the weights file, and the model has WeightsMissing
	// set. For tools that need only types and shapes.
	SkipWeights bool
	// MaxConstBytes, when positive, reads only the Consts of at most that
	// many bytes; the larger ones have no Constant (their ranges are still
	// checked). For tools that need the small constants of shape
	// sub-graphs and not the weights.
	MaxConstBytes int64
	// MaxXMLBytes bounds the size of the .xml (default 256 MiB).
	MaxXMLBytes int64
	// MaxDepth bounds the XML nesting depth (default 256).
	MaxDepth int
	// MaxNodes bounds the XML elements plus attributes (default 4Mi).
	MaxNodes int
	// MaxLayers, MaxPorts and MaxEdges bound the <layer>, <port> and
	// <edge> elements of the file, bodies of Loop and If included
	// (defaults 256Ki, 1Mi and 1Mi).
	MaxLayers, MaxPorts, MaxEdges int
}

func orDefault[T int | int64](v, def T) T {
	if v > 0 {
		return v
	}
	return def
}

// scanXML reads the XML from r while checking every cap, so that a file
// that breaks one is refused having cost no more than its bytes so far.
// size, when positive, is the file's size, used to allocate once.
func scanXML(r io.Reader, size int64, o ReadOptions) ([]byte, error) {
	maxBytes := orDefault(o.MaxXMLBytes, DefaultMaxXMLBytes)
	if size > maxBytes {
		return nil, errorf("%w: the XML has %d bytes, more than the %d allowed (ReadOptions.MaxXMLBytes)", ErrLimit, size, maxBytes)
	}
	var buf bytes.Buffer
	if size > 0 {
		buf.Grow(int(size) + bytes.MinRead)
	}
	lr := &capReader{r: r, left: maxBytes}
	dec := xml.NewDecoder(io.TeeReader(lr, &buf))
	caps := []struct {
		what  string
		field string
		max   int
		n     int
	}{
		{"XML elements and attributes", "MaxNodes", orDefault(o.MaxNodes, DefaultMaxNodes), 0},
		{"layers", "MaxLayers", orDefault(o.MaxLayers, DefaultMaxLayers), 0},
		{"ports", "MaxPorts", orDefault(o.MaxPorts, DefaultMaxPorts), 0},
		{"edges", "MaxEdges", orDefault(o.MaxEdges, DefaultMaxEdges), 0},
	}
	maxDepth := orDefault(o.MaxDepth, DefaultMaxDepth)
	depth := 0
	for {
		tok, err := dec.RawToken()
		if err == io.EOF {
			break
		}
		if lr.over {
			return nil, errorf("%w: the XML has more than the %d bytes allowed (ReadOptions.MaxXMLBytes)", ErrLimit, maxBytes)
		}
		var xmlErr *xml.SyntaxError
		switch {
		case errors.As(err, &xmlErr):
			return nil, &syntaxError{err}
		case err != nil:
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if depth++; depth > maxDepth {
				return nil, errorf("%w: the XML is nested deeper than %d elements (ReadOptions.MaxDepth)", ErrLimit, maxDepth)
			}
			caps[0].n += 1 + len(t.Attr)
			switch t.Name.Local {
			case "layer":
				caps[1].n++
			case "port":
				caps[2].n++
			case "edge":
				caps[3].n++
			}
			for _, c := range caps {
				if c.n > c.max {
					return nil, errorf("%w: the XML has more than %d %s (ReadOptions.%s)", ErrLimit, c.max, c.what, c.field)
				}
			}
		case xml.EndElement:
			depth--
		}
	}
	return buf.Bytes(), nil
}

// syntaxError is malformed XML found by the scan; decode words it as
// OpenVINO does.
type syntaxError struct{ err error }

func (e *syntaxError) Error() string { return e.err.Error() }

// capReader reads at most left bytes and then reports over. It also
// refuses the control characters XML 1.0 forbids as soon as it sees one:
// the XML decoder checks characters only at the end of a text run, which
// for a stream such as /dev/zero never comes.
type capReader struct {
	r    io.Reader
	left int64
	read int64
	over bool
}

func (c *capReader) Read(p []byte) (int, error) {
	if c.left <= 0 {
		// One byte more tells a file of exactly the cap from a longer one.
		var one [1]byte
		if n, _ := io.ReadFull(c.r, one[:]); n > 0 {
			c.over = true
			return 0, ErrLimit
		}
		return 0, io.EOF
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	for i, b := range p[:n] {
		if b < 0x20 && b != '\t' && b != '\n' && b != '\r' {
			return 0, &syntaxError{fmt.Errorf("illegal character code U+%04X at byte %d", b, c.read+int64(i))}
		}
	}
	c.left -= int64(n)
	c.read += int64(n)
	return n, err
}
