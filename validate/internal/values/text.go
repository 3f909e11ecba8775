package values

import (
	"strconv"
	"strings"
)

func itoa(v int64) string { return strconv.FormatInt(v, 10) }

func boolText(b bool) string { return strconv.FormatBool(b) }

func join(parts []string) string { return strings.Join(parts, ",") }
