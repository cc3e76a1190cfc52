// libFuzzer: the edits folder's journal (edit/journal.h), untrusted input a
// mod folder carries: any bytes parsed; what parses is written again and
// must parse to the same records, and renders without a raw control byte.
#include <cstdlib>
#include <string>
#include <string_view>

#include "edit/journal.h"

using namespace gcfs::edit;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    Journal journal;
    try {
        journal = parse_journal(text, "fuzz");
    } catch (const EditStoreError&) {
        return 0;
    }
    const std::string again = write_journal_text(journal);
    const Journal reread = parse_journal(again, "fuzz again");
    if (reread.records.size() != journal.records.size() || reread.next_sequence < journal.next_sequence) std::abort();
    for (size_t i = 0; i < journal.records.size(); ++i)
        if (reread.records[i].path != journal.records[i].path || reread.records[i].sequence != journal.records[i].sequence) std::abort();
    for (const char c : render_journal(journal, "/fuzz"))
        if ((static_cast<unsigned char>(c) < 0x20 && c != '\n') || c == 0x7f) std::abort();
    return 0;
}
