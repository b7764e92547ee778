package nodocgo

// Documented is documented.
func Documented()   {}
func Undocumented() {}
