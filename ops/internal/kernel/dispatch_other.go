//go:build !amd64 || purego

package kernel

func init() {
	tables[Generic] = genericTable()
}
