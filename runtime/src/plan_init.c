/*
 * plan_init.c: tgrs_plan_init(_with), the one way into a plan: size and alignment, then the
 * verifier (which checks the tables' checksum first, plan_verify.c), then the weights'
 * checksums (plan_integrity.c), then the view the getters read (plan_reader.c). Apart from
 * the getters, which the checks use, so that no two of these files depend on each other.
 */
#include <string.h>

#include "fb_map.h"
#include "fb_read.h"
#include "plan_internal.h"
#include "verify_internal.h"

#define READ(table, map, out) tgrs_fb_map_read(table, map, FB_MAP_COUNT(map), out)

/* The top-level vectors every getter starts from. */
static const fb_map vectors_map[] = {
    FB_VIEW(tgrs_plan, tensors_, FB_PLAN_TENSORS, FB_MAP_OBJECT),
    FB_VIEW(tgrs_plan, ops_, FB_PLAN_OPS, FB_MAP_OBJECT),
    FB_VIEW(tgrs_plan, stages_, FB_PLAN_STAGES, FB_MAP_OBJECT),
    FB_VIEW(tgrs_plan, chains_, FB_PLAN_CHAINS, FB_MAP_OBJECT),
    FB_VIEW(tgrs_plan, slow_buffers_, FB_PLAN_SLOW_BUFFERS, FB_MAP_OBJECT),
    FB_VIEW(tgrs_plan, weights_, FB_PLAN_WEIGHTS, FB_MAP_OBJECT),
    FB_VIEW(tgrs_plan, weight_blocks_, FB_PLAN_WEIGHT_BLOCKS, FB_MAP_OBJECT),
};

tgrs_status tgrs_plan_init(tgrs_plan* plan, const void* bytes, size_t size) {
  return tgrs_plan_init_with(plan, bytes, size, TGRS_INTEGRITY_ALL);
}

tgrs_status tgrs_plan_init_with(tgrs_plan* plan, const void* bytes, size_t size,
                                tgrs_integrity_mode mode) {
  const uint8_t* base = (const uint8_t*)bytes;
  const uint8_t* root = NULL;
  tgrs_status status;
  if (!plan) return TGRS_ERR_NULL_ARGUMENT;
  memset(plan, 0, sizeof *plan);
  plan->error.status = TGRS_ERR_NULL_ARGUMENT;
  plan->error.message = TGRS_MESSAGE("plan bytes are NULL");
  if (!bytes) return TGRS_ERR_NULL_ARGUMENT;
  plan->error.message = NULL;
  if (size > FB_MAX_BUFFER) {
    plan->error.status = TGRS_ERR_PLAN_TOO_LARGE;
    plan->error.message = TGRS_MESSAGE("{v} bytes exceed FlatBuffers' limit of {l}");
    plan->error.value = (int64_t)size;
    plan->error.limit = FB_MAX_BUFFER;
    return TGRS_ERR_PLAN_TOO_LARGE;
  }
  if ((uintptr_t)base % TGRS_PLAN_ALIGNMENT != 0) {
    plan->error.status = TGRS_ERR_PLAN_MISALIGNED;
    plan->error.message =
        TGRS_MESSAGE("plan bytes at address % {l} = {v}; weights need 16-byte alignment");
    plan->error.value = (int64_t)((uintptr_t)base % TGRS_PLAN_ALIGNMENT);
    plan->error.limit = TGRS_PLAN_ALIGNMENT;
    return TGRS_ERR_PLAN_MISALIGNED;
  }
  if ((unsigned)mode > TGRS_INTEGRITY_NONE) {
    plan->error.status = TGRS_ERR_BAD_VALUE;
    plan->error.message = TGRS_MESSAGE("integrity mode {v} is not a tgrs_integrity_mode");
    plan->error.value = (int64_t)mode;
    return TGRS_ERR_BAD_VALUE;
  }
  status = tgrs_verify_plan_(base, (uint32_t)size, mode, &plan->error, &root);
  if (status != TGRS_OK) return status;
  plan->error.status = TGRS_OK;
  plan->base_ = base;
  plan->size_ = (uint32_t)size;
  plan->root_ = root;
  READ(root, vectors_map, plan);
  plan->integrity_ = tgrs_read_table_(root, FB_PLAN_INTEGRITY);
  plan->integrity_mode_ = (uint32_t)mode;
  if (mode == TGRS_INTEGRITY_ALL) {
    /* The weights last: their offsets are trusted only once the tables verified. */
    status = tgrs_check_all_weights_(plan, &plan->error);
    if (status != TGRS_OK) {
      const tgrs_verify_error error = plan->error;
      memset(plan, 0, sizeof *plan); /* a damaged plan is not a usable view */
      plan->error = error;
      return status;
    }
  }
  return TGRS_OK;
}
