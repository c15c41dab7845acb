/* The untiled row window (tgrs_kernels.h, "Row windows"). */
#include "tgrs_kernels.h"

tgrs_row_window tgrs_row_window_full(int32_t in_h, int32_t out_h) {
  tgrs_row_window w;
  w.in_row_begin = 0;
  w.in_rows = in_h;
  w.out_row_begin = 0;
  w.out_row_end = out_h;
  return w;
}
