package netbench

import (
	"boardbench/internal/inventory/netif"
	"boardbench/internal/result"
)

// netInterfaces converts netif's descriptions of the interfaces to the
// result schema's (internal/result owns that JSON; a field added to netif
// reaches it only through a change there). Nil stays nil.
func netInterfaces(ds []netif.Details) []result.NetInterface {
	if ds == nil {
		return nil
	}
	out := make([]result.NetInterface, len(ds))
	for i, d := range ds {
		out[i] = netInterface(d)
	}
	return out
}

// netInterface converts one description.
func netInterface(d netif.Details) result.NetInterface {
	r := result.NetInterface{Interface: d.Interface, Notes: d.Notes}
	if d.Queues != nil {
		r.Queues = make([]result.NetQueue, len(d.Queues))
		for i, q := range d.Queues {
			r.Queues[i] = result.NetQueue(q)
		}
	}
	if d.IRQs != nil {
		r.IRQs = make([]result.NetIRQ, len(d.IRQs))
		for i, q := range d.IRQs {
			r.IRQs[i] = result.NetIRQ(q)
		}
	}
	r.Link = convertPtr(d.Link, func(v netif.Link) result.NetLink { return result.NetLink(v) })
	r.EEE = convertPtr(d.EEE, func(v netif.EEE) result.NetEEE { return result.NetEEE(v) })
	r.Coalesce = convertPtr(d.Coalesce, func(v netif.Coalesce) result.NetCoalesce { return result.NetCoalesce(v) })
	r.Channels = convertPtr(d.Channels, func(v netif.Channels) result.NetChannels { return result.NetChannels(v) })
	r.DriverInfo = convertPtr(d.DriverInfo, func(v netif.DriverInfo) result.NetDriverInfo { return result.NetDriverInfo(v) })
	return r
}

// convertPtr converts *p through f; nil stays nil.
func convertPtr[From, To any](p *From, f func(From) To) *To {
	if p == nil {
		return nil
	}
	v := f(*p)
	return &v
}
