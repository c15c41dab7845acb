// Handles.cs: SafeHandles owning the three libtigris handles, so each is freed exactly once
// by Dispose or, as a safety net, by the finalizer (tigris.h: every handle has a *_free).
// The generated layer (tigris_c, from bindings/tigris.i) takes them for every const handle
// parameter, so a handle cannot be released while a call uses it.
using System;
using Microsoft.Win32.SafeHandles;

namespace Tigris
{
    internal sealed class ModelHandle : SafeHandleZeroOrMinusOneIsInvalid
    {
        internal ModelHandle(IntPtr h) : base(true) { SetHandle(h); }
        protected override bool ReleaseHandle() { tigris_c.tigris_model_free(handle); return true; }
    }

    internal sealed class AnalysisHandle : SafeHandleZeroOrMinusOneIsInvalid
    {
        internal AnalysisHandle(IntPtr h) : base(true) { SetHandle(h); }
        protected override bool ReleaseHandle() { tigris_c.tigris_analysis_free(handle); return true; }
    }

    internal sealed class PlanHandle : SafeHandleZeroOrMinusOneIsInvalid
    {
        internal PlanHandle(IntPtr h) : base(true) { SetHandle(h); }
        protected override bool ReleaseHandle() { tigris_c.tigris_plan_free(handle); return true; }
    }
}
