// The field tables of formats-gameplay.md §3, one per record kind. Each byte
// of a record belongs to exactly one field (a unit test checks the cover).
#include "formats/gameplay/records.h"

namespace gcfs::formats::gameplay {
namespace {

using enum FieldType;

// formats-gameplay.md §3.1
constexpr Field kMobyFields[] = {
    {"size", 0x00, s32}, {"mission", 0x04, s32}, {"unknown_08", 0x08, s32}, {"unknown_0c", 0x0c, s32},
    {"uid", 0x10, s32}, {"bolts", 0x14, s32}, {"unknown_18", 0x18, s32}, {"unknown_1c", 0x1c, s32},
    {"unknown_20", 0x20, s32}, {"unknown_24", 0x24, s32}, {"class", 0x28, s32}, {"scale", 0x2c, f32},
    {"draw_distance", 0x30, s32}, {"update_distance", 0x34, s32}, {"unused_38", 0x38, s32}, {"unused_3c", 0x3c, s32},
    {"pos_x", 0x40, f32}, {"pos_y", 0x44, f32}, {"pos_z", 0x48, f32}, {"rot_x", 0x4c, f32}, {"rot_y", 0x50, f32},
    {"rot_z", 0x54, f32}, {"group", 0x58, s32}, {"is_rooted", 0x5c, s32}, {"rooted_distance", 0x60, f32},
    {"unknown_64", 0x64, s32}, {"pvar_index", 0x68, s32}, {"occlusion", 0x6c, s32}, {"mode_bits", 0x70, hex32},
    {"light_colour_r", 0x74, s32}, {"light_colour_g", 0x78, s32}, {"light_colour_b", 0x7c, s32}, {"light", 0x80, s32},
    {"unknown_84", 0x84, s32},
};

// formats-gameplay.md §3.2
constexpr Field kTieFields[] = {
    {"class", 0x00, s32}, {"draw_distance", 0x04, s32}, {"pad_08", 0x08, s32}, {"occlusion_index", 0x0c, s32},
    {"col0_x", 0x10, f32}, {"col0_y", 0x14, f32}, {"col0_z", 0x18, f32}, {"col0_w", 0x1c, f32}, {"col1_x", 0x20, f32},
    {"col1_y", 0x24, f32}, {"col1_z", 0x28, f32}, {"col1_w", 0x2c, f32}, {"col2_x", 0x30, f32}, {"col2_y", 0x34, f32},
    {"col2_z", 0x38, f32}, {"col2_w", 0x3c, f32}, {"col3_x", 0x40, f32}, {"col3_y", 0x44, f32}, {"col3_z", 0x48, f32},
    {"col3_w", 0x4c, f32}, {"directional_lights", 0x50, hex32}, {"uid", 0x54, s32}, {"pad_58", 0x58, s32},
    {"pad_5c", 0x5c, s32},
};

// formats-gameplay.md §3.3
constexpr Field kShrubFields[] = {
    {"class", 0x00, s32}, {"draw_distance", 0x04, f32}, {"unused_08", 0x08, s32}, {"unused_0c", 0x0c, s32},
    {"col0_x", 0x10, f32}, {"col0_y", 0x14, f32}, {"col0_z", 0x18, f32}, {"col0_w", 0x1c, f32}, {"col1_x", 0x20, f32},
    {"col1_y", 0x24, f32}, {"col1_z", 0x28, f32}, {"col1_w", 0x2c, f32}, {"col2_x", 0x30, f32}, {"col2_y", 0x34, f32},
    {"col2_z", 0x38, f32}, {"col2_w", 0x3c, f32}, {"col3_x", 0x40, f32}, {"col3_y", 0x44, f32}, {"col3_z", 0x48, f32},
    {"col3_w", 0x4c, f32}, {"colour_r", 0x50, s32}, {"colour_g", 0x54, s32}, {"colour_b", 0x58, s32},
    {"unused_5c", 0x5c, s32}, {"dir_lights", 0x60, hex32}, {"unused_64", 0x64, s32}, {"unused_68", 0x68, s32},
    {"unused_6c", 0x6c, s32},
};

// formats-gameplay.md §3.5 part 1
constexpr Field kSettingsFields[] = {
    {"background_r", 0x00, s32}, {"background_g", 0x04, s32}, {"background_b", 0x08, s32},
    {"fog_colour_r", 0x0c, s32}, {"fog_colour_g", 0x10, s32}, {"fog_colour_b", 0x14, s32},
    {"fog_near_distance", 0x18, f32}, {"fog_far_distance", 0x1c, f32}, {"fog_near_intensity", 0x20, f32},
    {"fog_far_intensity", 0x24, f32}, {"death_height", 0x28, f32}, {"is_spherical_world", 0x2c, s32},
    {"sphere_centre_x", 0x30, f32}, {"sphere_centre_y", 0x34, f32}, {"sphere_centre_z", 0x38, f32},
    {"ship_position_x", 0x3c, f32}, {"ship_position_y", 0x40, f32}, {"ship_position_z", 0x44, f32},
    {"ship_rotation_z", 0x48, f32}, {"ship_path", 0x4c, s32}, {"ship_camera_cuboid_start", 0x50, s32},
    {"ship_camera_cuboid_end", 0x54, s32}, {"pad_58", 0x58, hex32},
};

// formats-gameplay.md §3.5 part 2
constexpr Field kChunkPlaneFields[] = {
    {"point_x", 0x00, f32}, {"point_y", 0x04, f32}, {"point_z", 0x08, f32}, {"plane_count", 0x0c, s32},
    {"normal_x", 0x10, f32}, {"normal_y", 0x14, f32}, {"normal_z", 0x18, f32}, {"pad_1c", 0x1c, hex32},
};

// formats-gameplay.md §3.7 (matrix maps the unit cube [-1,1]^3 to world)
constexpr Field kVolumeFields[] = {
    {"col0_x", 0x00, f32}, {"col0_y", 0x04, f32}, {"col0_z", 0x08, f32}, {"col0_w", 0x0c, f32}, {"col1_x", 0x10, f32},
    {"col1_y", 0x14, f32}, {"col1_z", 0x18, f32}, {"col1_w", 0x1c, f32}, {"col2_x", 0x20, f32}, {"col2_y", 0x24, f32},
    {"col2_z", 0x28, f32}, {"col2_w", 0x2c, f32}, {"col3_x", 0x30, f32}, {"col3_y", 0x34, f32}, {"col3_z", 0x38, f32},
    {"col3_w", 0x3c, f32}, {"inverse_col0_x", 0x40, f32}, {"inverse_col0_y", 0x44, f32},
    {"inverse_col0_z", 0x48, f32}, {"inverse_col0_w", 0x4c, f32}, {"inverse_col1_x", 0x50, f32},
    {"inverse_col1_y", 0x54, f32}, {"inverse_col1_z", 0x58, f32}, {"inverse_col1_w", 0x5c, f32},
    {"inverse_col2_x", 0x60, f32}, {"inverse_col2_y", 0x64, f32}, {"inverse_col2_z", 0x68, f32},
    {"inverse_col2_w", 0x6c, f32}, {"rot_x", 0x70, f32}, {"rot_y", 0x74, f32}, {"rot_z", 0x78, f32},
    {"unused_7c", 0x7c, f32},
};

// formats-gameplay.md §3.8
constexpr Field kCameraFields[] = {
    {"class", 0x00, s32}, {"pos_x", 0x04, f32}, {"pos_y", 0x08, f32}, {"pos_z", 0x0c, f32}, {"rot_x", 0x10, f32},
    {"rot_y", 0x14, f32}, {"rot_z", 0x18, f32}, {"pvar_index", 0x1c, s32},
};

// formats-gameplay.md §3.9
constexpr Field kSoundFields[] = {
    {"class", 0x00, s16}, {"m_class", 0x02, s16}, {"update_fun_ptr", 0x04, hex32}, {"pvar_index", 0x08, s32},
    {"range", 0x0c, f32}, {"col0_x", 0x10, f32}, {"col0_y", 0x14, f32}, {"col0_z", 0x18, f32}, {"col0_w", 0x1c, f32},
    {"col1_x", 0x20, f32}, {"col1_y", 0x24, f32}, {"col1_z", 0x28, f32}, {"col1_w", 0x2c, f32}, {"col2_x", 0x30, f32},
    {"col2_y", 0x34, f32}, {"col2_z", 0x38, f32}, {"col2_w", 0x3c, f32}, {"col3_x", 0x40, f32}, {"col3_y", 0x44, f32},
    {"col3_z", 0x48, f32}, {"col3_w", 0x4c, f32}, {"inverse_col0_x", 0x50, f32}, {"inverse_col0_y", 0x54, f32},
    {"inverse_col0_z", 0x58, f32}, {"inverse_col0_w", 0x5c, f32}, {"inverse_col1_x", 0x60, f32},
    {"inverse_col1_y", 0x64, f32}, {"inverse_col1_z", 0x68, f32}, {"inverse_col1_w", 0x6c, f32},
    {"inverse_col2_x", 0x70, f32}, {"inverse_col2_y", 0x74, f32}, {"inverse_col2_z", 0x78, f32},
    {"inverse_col2_w", 0x7c, f32}, {"rot_x", 0x80, f32}, {"rot_y", 0x84, f32}, {"rot_z", 0x88, f32},
    {"pad_8c", 0x8c, f32},
};

// formats-gameplay.md §3.10
constexpr Field kDirLightFields[] = {
    {"colour_a_r", 0x00, f32}, {"colour_a_g", 0x04, f32}, {"colour_a_b", 0x08, f32}, {"colour_a_a", 0x0c, f32},
    {"direction_a_x", 0x10, f32}, {"direction_a_y", 0x14, f32}, {"direction_a_z", 0x18, f32},
    {"direction_a_w", 0x1c, f32}, {"colour_b_r", 0x20, f32}, {"colour_b_g", 0x24, f32}, {"colour_b_b", 0x28, f32},
    {"colour_b_a", 0x2c, f32}, {"direction_b_x", 0x30, f32}, {"direction_b_y", 0x34, f32},
    {"direction_b_z", 0x38, f32}, {"direction_b_w", 0x3c, f32},
};

// formats-gameplay.md §3.10 (1/64-unit fixed point, colours /65535)
constexpr Field kPointLightFields[] = {
    {"pos_x", 0x00, u16}, {"pos_y", 0x02, u16}, {"pos_z", 0x04, u16}, {"radius", 0x06, u16}, {"colour_r", 0x08, u16},
    {"colour_g", 0x0a, u16}, {"colour_b", 0x0c, u16}, {"unused", 0x0e, u16},
};

// formats-gameplay.md §3.15 (positions x4)
constexpr Field kEnvSampleFields[] = {
    {"hero_light", 0x00, s32}, {"pos_x", 0x04, s16}, {"pos_y", 0x06, s16}, {"pos_z", 0x08, s16},
    {"reverb_depth", 0x0a, s16}, {"music_track", 0x0c, s16}, {"fog_near_intensity", 0x0e, u8},
    {"fog_far_intensity", 0x0f, u8}, {"hero_colour_r", 0x10, u8}, {"hero_colour_g", 0x11, u8},
    {"hero_colour_b", 0x12, u8}, {"reverb_type", 0x13, u8}, {"reverb_delay", 0x14, u8}, {"reverb_feedback", 0x15, u8},
    {"enable_reverb_params", 0x16, u8}, {"fog_colour_r", 0x17, u8}, {"fog_colour_g", 0x18, u8},
    {"fog_colour_b", 0x19, u8}, {"fog_near_dist", 0x1a, s16}, {"fog_far_dist", 0x1c, s16}, {"unused", 0x1e, u16},
};

// formats-gameplay.md §3.15
constexpr Field kEnvTransitionFields[] = {
    {"inverse_col0_x", 0x00, f32}, {"inverse_col0_y", 0x04, f32}, {"inverse_col0_z", 0x08, f32},
    {"inverse_col0_w", 0x0c, f32}, {"inverse_col1_x", 0x10, f32}, {"inverse_col1_y", 0x14, f32},
    {"inverse_col1_z", 0x18, f32}, {"inverse_col1_w", 0x1c, f32}, {"inverse_col2_x", 0x20, f32},
    {"inverse_col2_y", 0x24, f32}, {"inverse_col2_z", 0x28, f32}, {"inverse_col2_w", 0x2c, f32},
    {"inverse_col3_x", 0x30, f32}, {"inverse_col3_y", 0x34, f32}, {"inverse_col3_z", 0x38, f32},
    {"inverse_col3_w", 0x3c, f32}, {"hero_colour_1_r", 0x40, u8}, {"hero_colour_1_g", 0x41, u8},
    {"hero_colour_1_b", 0x42, u8}, {"hero_colour_1_x", 0x43, u8}, {"hero_colour_2_r", 0x44, u8},
    {"hero_colour_2_g", 0x45, u8}, {"hero_colour_2_b", 0x46, u8}, {"hero_colour_2_x", 0x47, u8},
    {"hero_light_1", 0x48, s32}, {"hero_light_2", 0x4c, s32}, {"flags", 0x50, hex32}, {"fog_colour_1_r", 0x54, u8},
    {"fog_colour_1_g", 0x55, u8}, {"fog_colour_1_b", 0x56, u8}, {"fog_colour_1_x", 0x57, u8},
    {"fog_colour_2_r", 0x58, u8}, {"fog_colour_2_g", 0x59, u8}, {"fog_colour_2_b", 0x5a, u8},
    {"fog_colour_2_x", 0x5b, u8}, {"fog_near_dist_1", 0x5c, f32}, {"fog_near_intensity_1", 0x60, f32},
    {"fog_far_dist_1", 0x64, f32}, {"fog_far_intensity_1", 0x68, f32}, {"fog_near_dist_2", 0x6c, f32},
    {"fog_near_intensity_2", 0x70, f32}, {"fog_far_dist_2", 0x74, f32}, {"fog_far_intensity_2", 0x78, f32},
    {"unused_7c", 0x7c, s32},
};

// formats-gameplay.md §3.6, §3.14, §3.15
constexpr Field kSphereFields[] = {
    {"centre_x", 0x00, f32}, {"centre_y", 0x04, f32}, {"centre_z", 0x08, f32}, {"radius", 0x0c, f32},
};

// formats-gameplay.md §3.16
constexpr Field kCamCollPrimFields[] = {
    {"bsphere_x", 0x00, f32}, {"bsphere_y", 0x04, f32}, {"bsphere_z", 0x08, f32}, {"bsphere_r", 0x0c, f32},
    {"type", 0x10, s32}, {"index", 0x14, s32}, {"flags", 0x18, hex32}, {"i_value", 0x1c, s32}, {"f_value", 0x20, f32},
    {"pad_24", 0x24, s32}, {"pad_28", 0x28, s32}, {"pad_2c", 0x2c, s32},
};

// formats-gameplay.md §3.6
constexpr Field kGrindDataFields[] = {
    {"bsphere_x", 0x00, f32}, {"bsphere_y", 0x04, f32}, {"bsphere_z", 0x08, f32}, {"bsphere_r", 0x0c, f32},
    {"unknown_4", 0x10, s32}, {"wrap", 0x14, s32}, {"inactive", 0x18, s32}, {"pad_1c", 0x1c, s32},
};

// formats-gameplay.md §3.14
constexpr Field kAreaFields[] = {
    {"bsphere_x", 0x00, f32}, {"bsphere_y", 0x04, f32}, {"bsphere_z", 0x08, f32}, {"bsphere_r", 0x0c, f32},
    {"paths_count", 0x10, s16}, {"cuboids_count", 0x12, s16}, {"spheres_count", 0x14, s16},
    {"cylinders_count", 0x16, s16}, {"negative_cuboids_count", 0x18, s16}, {"last_update_time", 0x1a, s16},
    {"paths_offset", 0x1c, s32}, {"cuboids_offset", 0x20, s32}, {"spheres_offset", 0x24, s32},
    {"cylinders_offset", 0x28, s32}, {"negative_cuboids_offset", 0x2c, s32},
};

}  // namespace

const RecordSchema kMobySchema{"moby", 0x88, kMobyFields};
const RecordSchema kTieSchema{"tie", 0x60, kTieFields};
const RecordSchema kShrubSchema{"shrub", 0x70, kShrubFields};
const RecordSchema kSettingsSchema{"level settings", 0x5c, kSettingsFields};
const RecordSchema kChunkPlaneSchema{"chunk plane", 0x20, kChunkPlaneFields};
const RecordSchema kVolumeSchema{"volume", 0x80, kVolumeFields};
const RecordSchema kCameraSchema{"camera", 0x20, kCameraFields};
const RecordSchema kSoundSchema{"sound", 0x90, kSoundFields};
const RecordSchema kDirLightSchema{"directional light", 0x40, kDirLightFields};
const RecordSchema kPointLightSchema{"point light", 0x10, kPointLightFields};
const RecordSchema kEnvSampleSchema{"env sample point", 0x20, kEnvSampleFields};
const RecordSchema kEnvTransitionSchema{"env transition", 0x80, kEnvTransitionFields};
const RecordSchema kSphereSchema{"bounding sphere", 0x10, kSphereFields};
const RecordSchema kCamCollPrimSchema{"camera collision primitive", 0x30, kCamCollPrimFields};
const RecordSchema kGrindDataSchema{"grind path", 0x20, kGrindDataFields};
const RecordSchema kAreaSchema{"area", 0x30, kAreaFields};

}  // namespace gcfs::formats::gameplay
