# The two commands of the README.
#   make demo   installs packages, builds, makes the demo disc, mounts it, lists it
#   make test   installs packages, builds (plain and ASan/UBSan), runs every test
BUILD      ?= build
SANITIZED_BUILD ?= build-sanitized
DEMO_DIR   ?= /tmp/gcfs-demo
# 8 s a target keeps `make test` under its 40 minutes on 2 cores (41 min at 20 s with 28
# targets, 2026-12-07); `make fuzz` gives each 10 minutes.
FUZZ_SECONDS ?= 8
FUZZ_TARGETS := wad_lz iso9660 toc level_headers level_core vif tfrag geometry gameplay tie shrub moby vag subtitles pss_sound pif armor executable core_blocks saved_index restart_point edit_png edit_text edit_sound edit_scene journal mod_merge scene collision_compile terrain_compile sky_compile obj_colours tie_compile shrub_compile

.PHONY: deps deps-build build sanitized-build demo test test-release test-asan test-meson test-fuzz test-package fuzz bench clean

# deps-build: what building and running gcfs needs (make demo); deps: that
# and every tool the tests drive (make test).
deps-build:
	@bash scripts/install-deps.sh build

deps:
	@echo "== $@ $$(date +%T)"
	@bash scripts/install-deps.sh test

build: deps-build
	@echo "== $@ $$(date +%T)"
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	cmake --build $(BUILD)

demo: build
	@mkdir -p $(DEMO_DIR)/mnt
	@fusermount3 -u $(DEMO_DIR)/mnt 2>/dev/null || true
	$(BUILD)/gcfs mkdisc $(DEMO_DIR)/demo.iso --levels 4 --seed 1
	$(BUILD)/gcfs mount $(DEMO_DIR)/demo.iso $(DEMO_DIR)/mnt
	@echo; echo "== mounted on $(DEMO_DIR)/mnt (unmount: fusermount3 -u $(DEMO_DIR)/mnt)"; echo
	ls -l $(DEMO_DIR)/mnt $(DEMO_DIR)/mnt/LEVEL00 $(DEMO_DIR)/mnt/LEVEL00/core $(DEMO_DIR)/mnt/by-id
	ls -l $(DEMO_DIR)/mnt/LEVEL00/tfrag | head -8
	ls -l $(DEMO_DIR)/mnt/LEVEL00/textures $(DEMO_DIR)/mnt/LEVEL00/classes
	head -8 $(DEMO_DIR)/mnt/LEVEL00/tfrag/terrain.obj
	ls -l $(DEMO_DIR)/mnt/LEVEL00/mobies $(DEMO_DIR)/mnt/LEVEL00/ties $(DEMO_DIR)/mnt/LEVEL00/shrubs
	cut -d, -f1,4,7,10,11 $(DEMO_DIR)/mnt/LEVEL00/ties/ties.csv
	ls -l $(DEMO_DIR)/mnt/LEVEL00/gameplay
	cut -d, -f1,6,12,18-20 $(DEMO_DIR)/mnt/LEVEL00/gameplay/mobies.csv | head -5
	cat $(DEMO_DIR)/mnt/LEVEL00/gameplay/help/us_english.txt
	getfattr --absolute-names -d $(DEMO_DIR)/mnt/LEVEL00/collision.obj
	@echo; cat $(DEMO_DIR)/mnt/README.txt
	@echo; $(BUILD)/gcfs verify $(DEMO_DIR)/demo.iso
	@echo; echo "== each level as one glTF 2.0 scene (terrain, sky, every placed tie, shrub and moby), its collision beside it:"
	@ls -l $(DEMO_DIR)/mnt/LEVEL0*/level.glb $(DEMO_DIR)/mnt/LEVEL0*/collision.glb
	@echo "   open one in Blender: blender --python-expr 'import bpy; bpy.ops.import_scene.gltf(filepath=\"$(DEMO_DIR)/mnt/LEVEL00/level.glb\", import_shading=\"FLAT\")'"
	@echo "   (or File > Import > glTF 2.0 with Shading: Flat; Debian's Blender needs python3-numpy), or any glTF viewer;"
	@echo "   the README's 'The whole level' says what is in it. Every OBJ is y-up too: Blender's OBJ import places it there."
	@echo; echo "== every sound as the disc holds it (.vag) and decoded (.wav), every cutscene (.pss) with its subtitles (.srt):"
	ls -l $(DEMO_DIR)/mnt/global/audio $(DEMO_DIR)/mnt/global/audio/vendor $(DEMO_DIR)/mnt/LEVEL00/audio
	cut -d, -f1,5-10 $(DEMO_DIR)/mnt/global/audio/audio.csv | head -6
	ls -l $(DEMO_DIR)/mnt/global/mpeg
	cat $(DEMO_DIR)/mnt/global/mpeg/00.fr.srt
	@echo "   play one with any player, e.g. ffplay (Debian package ffmpeg):"
	@echo "   ffplay -autoexit $(DEMO_DIR)/mnt/global/audio/vendor/005.wav"
	@echo "   ffplay $(DEMO_DIR)/mnt/global/mpeg/00.pss    (mpv: --sub-file=$(DEMO_DIR)/mnt/global/mpeg/00.en.srt)"
	@echo; echo "== the global art: armor and wrench models (OBJ, glTF), the bonus gallery, the front end's code as ELF:"
	ls -l $(DEMO_DIR)/mnt/global/armor $(DEMO_DIR)/mnt/global/bonus $(DEMO_DIR)/mnt/global/bonus/sketchbook
	cut -d, -f1,6-8,10-13 $(DEMO_DIR)/mnt/global/armor/armor.csv
	ls -l $(DEMO_DIR)/mnt/global/misc $(DEMO_DIR)/mnt/global/misc/irx

test: test-release test-asan test-meson test-fuzz test-package
	@echo "== $@ passed $$(date +%T)"

# Each test target prints its start time: CI's log shows where the time goes.
test-release: deps build
	@echo "== $@ $$(date +%T)"
	cd $(BUILD) && ctest --output-on-failure

# One sanitized build (clang, AddressSanitizer + UndefinedBehaviorSanitizer,
# libFuzzer's coverage hooks) serves the unit tests and the fuzz targets: the
# code is compiled once for both.
sanitized-build: deps
	CC=clang CXX=clang++ cmake -S . -B $(SANITIZED_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGCFS_FUZZ=ON >/dev/null

# Unit tests under AddressSanitizer + UndefinedBehaviorSanitizer.
test-asan: sanitized-build
	@echo "== $@ $$(date +%T)"
	cmake --build $(SANITIZED_BUILD) --target gcfs_unit_tests gcfs
	cd $(SANITIZED_BUILD) && ctest --output-on-failure -R unit

# meson builds the same targets; its unit test run proves the build is complete.
# Unoptimised (-O0): it compiles in half the time, and it is a build the
# other two are not.
test-meson: deps
	@echo "== $@ $$(date +%T)"
	@[ -d build-meson ] || meson setup build-meson -Dbuildtype=debug >/dev/null
	meson compile -C build-meson
	meson test -C build-meson --print-errorlogs unit

# The .deb installed and used on a clean Debian 12 root (debootstrap, kept as
# a pristine tarball in $(BUILD)), with only its declared dependencies.
test-package: deps build test-meson
	@echo "== $@ $$(date +%T)"
	bash packaging/test-deb.sh $(BUILD) build-meson

# Every parser under libFuzzer (clang, ASan+UBSan), FUZZ_SECONDS each: bounded
# in `make test`; `make fuzz` runs 10 minutes per target for hand runs.
test-fuzz: build sanitized-build
	@echo "== $@ $$(date +%T)"
	cmake --build $(SANITIZED_BUILD) --target $(addprefix fuzz_,$(FUZZ_TARGETS))
	bash tests/fuzz/run.sh $(BUILD)/gcfs $(SANITIZED_BUILD) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

fuzz:
	$(MAKE) test-fuzz FUZZ_SECONDS=600

# The benchmark of bench/run.py on a full-scale disc (built once under bench/work).
bench: deps build
	python3 bench/run.py --gcfs $(BUILD)/gcfs

clean:
	rm -rf $(BUILD) $(SANITIZED_BUILD) build-meson
