// The per-block readers of read.cpp (formats-gameplay.md §3). Each reads the
// block at file offset `at` from `f`, the file cut where the next block
// starts, sets `length` to the bytes its counts cover (§2.3), and fails with
// a FormatFailure naming the file offset.
#pragma once

#include "formats/gameplay/gameplay.h"

namespace gcfs::formats::gameplay {

RecordTable read_table(ByteSpan f, uint64_t at, const RecordSchema& schema, uint64_t& length);
LevelSettings read_settings(ByteSpan f, uint64_t at, uint64_t& length);
HelpMessages read_help(ByteSpan f, uint64_t at, uint64_t& length);
std::vector<int32_t> read_class_list(ByteSpan f, uint64_t at, uint64_t& length);
Groups read_groups(ByteSpan f, uint64_t at, uint64_t& length);
std::vector<Fixup> read_fixups(ByteSpan f, uint64_t at, uint64_t& length);
SharedData read_shared(ByteSpan f, uint64_t at, uint64_t& length);
std::vector<TieAmbient> read_tie_ambient(ByteSpan f, uint64_t at, uint64_t& length);
Paths read_paths(ByteSpan f, uint64_t at, bool grind, uint64_t& length);
PointLights read_point_lights(ByteSpan f, uint64_t at, uint64_t& length);
EnvTransitions read_env_transitions(ByteSpan f, uint64_t at, uint64_t& length);
CamCollGrid read_cam_coll_grid(ByteSpan f, uint64_t at, uint64_t& length);
OcclusionMappings read_occlusion(ByteSpan f, uint64_t at, uint64_t& length);
Areas read_areas(ByteSpan f, uint64_t at, uint64_t& length);

}  // namespace gcfs::formats::gameplay
