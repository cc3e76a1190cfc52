#include "formats/disc/level_names.h"

namespace gcfs::formats {

const char* gc_level_name(int32_t id) {
    switch (id) {
        case 0: return "Aranos Tutorial";   case 1: return "Oozla";          case 2: return "Maktar Nebula";
        case 3: return "Endako";            case 4: return "Barlow";         case 5: return "Feltzin System";
        case 6: return "Notak";             case 7: return "Siberius";       case 8: return "Tabora";
        case 9: return "Dobbo";             case 10: return "Hrugis Cloud";  case 11: return "Joba";
        case 12: return "Todano";           case 13: return "Boldan";        case 14: return "Aranos Prison";
        case 15: return "Gorn";             case 16: return "Snivelak";      case 17: return "Smolg";
        case 18: return "Damosel";          case 19: return "Grelbin";       case 20: return "Yeedil";
        case 22: return "Dobbo Orbit";      case 23: return "Damosel Orbit"; case 24: return "Ship Shack";
        case 25: return "Wupash Nebula";    case 26: return "Jamming Array"; case 30: return "Insomniac Museum";
        default: return "";
    }
}

}  // namespace gcfs::formats
