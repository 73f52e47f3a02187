package blockdev

import "boardbench/internal/result"

// ToResult returns the identity as the result schema keeps it (the
// result's top-level device); nil for nil. internal/result owns that
// JSON: a field added here reaches it only through a change there.
func (id *Identity) ToResult() *result.DeviceIdentity {
	if id == nil {
		return nil
	}
	out := &result.DeviceIdentity{
		Path: id.Path, Raw: id.Raw, Kind: id.Kind, Name: id.Name, Partition: id.Partition,
		NotStorage: id.NotStorage, Mount: id.Mount, Block: id.Block, CID: id.CID, CSD: id.CSD,
		BusMode: id.BusMode, HostModes: id.HostModes, TRIM: id.TRIM, Notes: id.Notes,
	}
	if id.Filesystem != nil {
		fs := result.DeviceFilesystem(*id.Filesystem)
		out.Filesystem = &fs
	}
	if id.Stack != nil {
		out.Stack = make([]result.DeviceLayer, len(id.Stack))
		for i, l := range id.Stack {
			out.Stack[i] = result.DeviceLayer(l)
		}
	}
	return out
}
