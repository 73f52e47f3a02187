package infotext

import (
	"bytes"
	"strings"
	"testing"

	"boardbench/internal/inventory"
	"boardbench/internal/inventory/virt"
)

func TestVMLine(t *testing.T) {
	yes, no := true, false
	cases := []struct {
		in   virt.Info
		want string
	}{
		{virt.Info{IsVM: &yes, Hypervisor: "KVM", Cloud: "Amazon EC2"}, "KVM (Amazon EC2)"},
		{virt.Info{IsVM: &yes, Hypervisor: "VMware"}, "VMware"},
		{virt.Info{IsVM: &yes}, "yes (hypervisor not named)"},
		{virt.Info{IsVM: &no}, "no"},
		{virt.Info{IsVM: &no, Cloud: "Amazon EC2"}, "no (bare-metal Amazon EC2 instance)"},
		{virt.Info{}, "unknown (nothing tells on this machine)"},
	}
	for _, tc := range cases {
		if got := vmLine(tc.in); got != tc.want {
			t.Errorf("vmLine(%+v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestRenderBoardShowsVM(t *testing.T) {
	yes := true
	in := &inventory.Info{VM: virt.Info{IsVM: &yes, Hypervisor: "Microsoft Hyper-V", Cloud: "Microsoft Azure"}}
	var b bytes.Buffer
	Render(&b, in, false)
	if !strings.Contains(b.String(), "Virtual machine") || !strings.Contains(b.String(), "Microsoft Hyper-V (Microsoft Azure)") {
		t.Errorf("board section lacks the VM line:\n%s", b.String())
	}
}
