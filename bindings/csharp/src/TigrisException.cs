// TigrisException.cs: a failed libtigris call, carrying the pinned status code of tigris.h.
using System;

namespace Tigris
{
    public enum Status
    {
        Ok = 0, InvalidArgument = 1, IO = 2, EmptyModel = 3, NotOnnx = 4, TruncatedModel = 5,
        InvalidModel = 6, GraphCycle = 7, DanglingInput = 8, UnsupportedOp = 9, DynamicShape = 10,
        ShapeInference = 11, ExternalData = 12, UnsupportedDtype = 13,
        UnsupportedQuantization = 14, OutOfMemory = 15, Internal = 16, InvalidBudget = 17,
        SlowBudgetTooSmall = 18, FlashBudgetTooSmall = 19, VersionMismatch = 20, DoesNotFit = 21,
        InvalidPlan = 22,
    }

    public class TigrisException : Exception
    {
        public Status Status { get; private set; }
        /// <summary>Stable name, e.g. "TIGRIS_ERR_IO".</summary>
        public string StatusName { get; private set; }
        /// <summary>The library's message (names the file, op, tensor or field at fault).</summary>
        public string Detail { get; private set; }

        public TigrisException(int status, string detail)
            : base(tigris_c.tigris_status_name((tigris_status)status) + ": " + detail)
        {
            Status = (Status)status;
            StatusName = tigris_c.tigris_status_name((tigris_status)status);
            Detail = detail;
        }

        internal static void Check(tigris_status status)
        {
            if (status != tigris_status.TIGRIS_OK)
                throw new TigrisException((int)status, tigris_c.tigris_last_error());
        }
    }
}
