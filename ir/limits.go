package ir

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

// ReadOptions configure ReadFile and ReadBytes. The zero value is safe:
// every cap left at 0 takes its default. Reading checks the size of the
// file before reading it, the XML nodes (elements plus attributes)
// before etree builds its tree of them, the nesting as etree parses, and
// the layers, ports and edges on that tree before any of it becomes a
// model, so peak memory is bounded by the caps and the size of the file:
// about 300 bytes per node (etree's tree, most of it, and the model) on
// top of the text, some 1.3 GB at the default MaxNodes.
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

// xmlCaps are the caps parseXML checks, defaults applied.
func (o ReadOptions) xmlCaps() xmlCaps {
	return xmlCaps{
		nodes: orDefault(o.MaxNodes, DefaultMaxNodes),
		depth: orDefault(o.MaxDepth, DefaultMaxDepth),
		tags: []tagCap{
			{"layer", "layers", "MaxLayers", orDefault(o.MaxLayers, DefaultMaxLayers)},
			{"port", "ports", "MaxPorts", orDefault(o.MaxPorts, DefaultMaxPorts)},
			{"edge", "edges", "MaxEdges", orDefault(o.MaxEdges, DefaultMaxEdges)},
		},
	}
}
