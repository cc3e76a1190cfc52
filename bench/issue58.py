"""Issue 58's table, written by bench/run.py from the figures its other
measurements took in the same run: each row with the target as the issue
writes it, met or missed, and for a missed one the measurement that bounds
it and the step that would cross it."""

TITLE = "Issue 58: the rows still behind a peer"
INTRO = ("Issue 58's table, row by row, from the figures above (the same run): gcfs beside its baseline, the ratio, "
         "the target as the issue writes it. A missed row names what bounds it, measured in this run, and the step "
         "that would cross it.")


def rows(codec, peers, wav, edit):
    """`codec`: gcfs_bench codec's figures; `peers`: measure_peers' figures (g: first mount, g2: second mount, q:
    squashfuse_ll, p: plain); `wav`: (bytes, cold mount B/s, cold plain B/s); `edit`: edits.round_trip's dict."""
    g, g2, q, p = peers["g"], peers["g2"], peers["q"], peers["p"]
    out = []

    def row(figure, gcfs, peer, ratio, target, ok, bound):
        out.append((figure, gcfs, peer, ratio, target, "met" if ok else "MISSED", "" if ok else bound))

    ms = lambda s: "%.1f ms" % (s * 1e3)
    r = g["mount_first_ls_s"] / q["mount_first_ls_s"]
    row("mount -> first ls, cold", ms(g["mount_first_ls_s"]), "squashfuse_ll " + ms(q["mount_first_ls_s"]), "%.2fx" % r, "≤ 1.5×",
        r <= 1.5, "the program alone started cold and run to exit takes %s against squashfuse_ll's %s (%.2fx): the floor is "
        "the binary's own start (its shared libraries); step: fewer libraries loaded before the first answer"
        % (ms(g["program_start_s"]), ms(q["program_start_s"]), g["program_start_s"] / q["program_start_s"]))
    r = g["ls_lr_first_s"] / p["ls_lr_first_s"]
    row("first `ls -lR`, first mount", "%.2f s" % g["ls_lr_first_s"], "plain %.2f s" % p["ls_lr_first_s"], "%.2fx" % r, "≤ 2.0×",
        r <= 2.0, "the same listing on a second mount (nothing decoded) takes %.2f s: %.2f s of the first is sizing the 27 "
        "levels (the core windows, the WAD LZ decoder's row below); step: the faster decoder (item 1)"
        % (g2["ls_lr_first_s"], g["ls_lr_first_s"] - g2["ls_lr_first_s"]))
    r = g2["ls_lr_first_s"] / p["ls_lr_first_s"]
    row("first `ls -lR`, second mount (index)", "%.2f s" % g2["ls_lr_first_s"], "plain %.2f s" % p["ls_lr_first_s"], "%.2fx" % r,
        "≤ 1.0×", r <= 1.0, "a repeat listing (every attribute cached by the kernel) takes %.2f s, so %.2f s is the first "
        "listing's FUSE lookups and the folders built from their records; step: readdirplus answered from the record "
        "without building nodes (item 4)" % (g2["ls_lr_repeat_s"], g2["ls_lr_first_s"] - g2["ls_lr_repeat_s"]))
    ri, rn = g2["first_class_read_s"] / q["first_class_read_s"], g["first_class_read_s"] / q["first_class_read_s"]
    row("first read of `LEVEL03/ties/tie_500.obj`, fresh mount, index / no index",
        "%s / %s" % (ms(g2["first_class_read_s"]), ms(g["first_class_read_s"])), "squashfuse_ll " + ms(q["first_class_read_s"]),
        "%.1fx / %.1fx" % (ri, rn), "≤ 3× / ≤ 6×", ri <= 3 and rn <= 6,
        "with the index the class window starts at its own restart point (nothing walked before its lead); without one "
        "the walk decodes the core up to the class window; step: the faster decoder (item 1)")
    ri, rn = g2["first_small_read_s"] / q["first_small_read_s"], g["first_small_read_s"] / q["first_small_read_s"]
    row("first read of `LEVEL03/tfrag/patch_0123.obj`, fresh mount, index / no index",
        "%s / %s" % (ms(g2["first_small_read_s"]), ms(g["first_small_read_s"])), "squashfuse_ll " + ms(q["first_small_read_s"]),
        "%.1fx / %.1fx" % (ri, rn), "≤ 2× both (the index must not make it slower)", ri <= 2 and rn <= 2,
        "the tfrag region decoded whole before the patch (%s bytes over 6 levels at %s MB/s in the codec row) bounds both; "
        "the index adds its level record's decode; step: a patch from its own window, records loaded per folder (items 3, 4)"
        % (codec["tfrag_bytes"], codec["lz_tfrag_mb_s"]))
    size, cold_m, cold_p = wav
    r = cold_m / cold_p
    row("stream a 10-minute WAV cold", "%.0f MB/s" % (cold_m / 1e6), "plain %.0f MB/s" % (cold_p / 1e6), "%.2fx" % r, "≥ 0.5×",
        r >= 0.5, "the stat reads every frame flag of the VAG before the first byte, then the decode reads it again; "
        "step: the size from the header and a scan that does not read the whole file first (item 5)")
    row("close of an edited texture on the full-scale disc, until the new level is served", "%.2f s" % edit["close_s"], "",
        "", "≤ 0.2 s", edit["close_s"] <= 0.2,
        "a close replays the level's edits over its parts decoded once (kept between saves), re-compresses the core "
        "around the change (wad_lz::recompress), decodes the new core once and keeps the image level's decoder checks, "
        "none of which reads texels (edit/texel_checks.h); the level's first save also decodes it and checks it once. "
        "What is left: the container's copies and the tree built again over it")
    lz, walk = float(codec["lz_core_mb_s"]), float(codec["lz_core_walk_mb_s"])
    row("WAD LZ decode, whole cores, one core (codec bench)", "%.0f MB/s" % lz, "the reference 184-220 MB/s (issue 58's figure)",
        "", "≥ 2 GB/s", lz >= 2000,
        "the same packets walked with nothing written run at %.0f MB/s on the same %s cores: reading the packets alone "
        "is under 2 GB/s, so no copy strategy in this loop reaches it (a table-driven, "
        "branch-free decode of a packet's kind measured no faster); step: split a core at restart points and decode the "
        "parts on both cores" % (walk, codec["levels"]))
    r = g["ls_lr_repeat_s"] / p["ls_lr_repeat_s"]
    row("`ls -lR` repeat, peak RSS (first / second mount)",
        "%.2f s; %.0f / %.0f MiB" % (g["ls_lr_repeat_s"], g["rss_after_ls_lr_mib"], g2["rss_after_ls_lr_mib"]),
        "plain %.2f s" % p["ls_lr_repeat_s"], "%.2fx" % r, "keep (≤ 1.0×; ≤ 48 / ≤ 32 MiB)",
        r <= 1.0 and g["rss_after_ls_lr_mib"] <= 48 and g2["rss_after_ls_lr_mib"] <= 32, "")
    return out


def write(f, table):
    f.write("\n## %s\n\n%s\n\n" % (TITLE, INTRO))
    f.write("| figure | gcfs | baseline | ratio | target | | what bounds it, and the step that would cross it |\n"
            "|---|---|---|---|---|---|---|\n")
    for r in table:
        f.write("| %s | %s | %s | %s | %s | %s | %s |\n" % r)
