;; Counts "\n" bytes (or any byte) in memory[p, end) with 128-bit SIMD: the kernel behind skipping
;; and counting lines at memory speed (Buffer.indexOf once per line costs a call per line; this costs none).
;; "fold" lower-cases ASCII letters in place, for grep -i's literal prefilter (Buffer.indexOf on the
;; folded copy of a block instead of a case-insensitive RegExp over a string of it).
;; "pair" finds where two bytes of a literal sit at their offsets, 16 positions at a time: grep's
;; literal search when the literal has no rare byte for Buffer.indexOf to skip ahead on, and -i's
;; in place (each byte ORed with a mask first: 0x20 for a letter matches both its cases, exactly).
;; "starts" writes where each line starts (the byte after each "\n") into an output area, so a
;; file's line starts are copied out in bulk (a TypedArray set) instead of found by one indexOf call
;; per line, which without TurboFan (patch runs without it) cost 108 ms for a 64 MiB file.
;; Built into src/core/newlines-wasm.ts by scripts/build-wasm.mjs; the test checks they agree.
(module
  (memory (export "memory") 1)
  (func (export "count") (param $p i32) (param $end i32) (result i32)
    (call $bytes (local.get $p) (local.get $end) (i32.const 10)))
  ;; "bytes": how many times byte $x is in memory[p, end) ("count" is it for "\n"); grep counts the
  ;; bytes of its literals with it to choose their rarest (a JavaScript loop over 64 KiB of bytes
  ;; made V8 compile that loop with TurboFan, 3.5 MiB of memory for a grep of a small file).
  (func $bytes (export "bytes") (param $p i32) (param $end i32) (param $x i32) (result i32)
    (local $n i32) (local $nl v128) (local $acc v128) (local $stop i32) (local $blockEnd i32)
    (local $b v128) (local $c v128) (local $d v128)
    (local.set $nl (i8x16.splat (local.get $x)))
    ;; 64 bytes a step, into four accumulators (no dependency between the four lanes of work), in
    ;; blocks of at most 255 steps so no 8-bit lane overflows: measured a third faster than one
    ;; vector a step
    (block $wideDone
      (loop $wideBlocks
        (br_if $wideDone (i32.gt_u (i32.add (local.get $p) (i32.const 64)) (local.get $end)))
        (local.set $blockEnd (i32.add (local.get $p) (i32.const 16320)))
        (local.set $stop (i32.sub (local.get $end) (i32.const 63)))
        (if (i32.lt_u (local.get $blockEnd) (local.get $stop)) (then (local.set $stop (local.get $blockEnd))))
        (local.set $acc (v128.const i64x2 0 0))
        (local.set $b (v128.const i64x2 0 0))
        (local.set $c (v128.const i64x2 0 0))
        (local.set $d (v128.const i64x2 0 0))
        (loop $steps
          (local.set $acc (i8x16.sub (local.get $acc) (i8x16.eq (v128.load (local.get $p)) (local.get $nl))))
          (local.set $b (i8x16.sub (local.get $b) (i8x16.eq (v128.load offset=16 (local.get $p)) (local.get $nl))))
          (local.set $c (i8x16.sub (local.get $c) (i8x16.eq (v128.load offset=32 (local.get $p)) (local.get $nl))))
          (local.set $d (i8x16.sub (local.get $d) (i8x16.eq (v128.load offset=48 (local.get $p)) (local.get $nl))))
          (local.set $p (i32.add (local.get $p) (i32.const 64)))
          (br_if $steps (i32.lt_u (local.get $p) (local.get $stop))))
        ;; the four into 16-bit lanes (at most 4 x 2 x 255), then 32-bit ones, then one sum
        (local.set $acc (i32x4.extadd_pairwise_i16x8_u
          (i16x8.add
            (i16x8.add (i16x8.extadd_pairwise_i8x16_u (local.get $acc)) (i16x8.extadd_pairwise_i8x16_u (local.get $b)))
            (i16x8.add (i16x8.extadd_pairwise_i8x16_u (local.get $c)) (i16x8.extadd_pairwise_i8x16_u (local.get $d))))))
        (local.set $n (i32.add (local.get $n)
          (i32.add
            (i32.add (i32x4.extract_lane 0 (local.get $acc)) (i32x4.extract_lane 1 (local.get $acc)))
            (i32.add (i32x4.extract_lane 2 (local.get $acc)) (i32x4.extract_lane 3 (local.get $acc))))))
        (br $wideBlocks)))
    ;; the rest in whole 16-byte vectors, in blocks of at most 255 so no 8-bit lane of $acc overflows
    (block $vectorsDone
      (loop $blocks
        (br_if $vectorsDone (i32.gt_u (i32.add (local.get $p) (i32.const 16)) (local.get $end)))
        (local.set $blockEnd (i32.add (local.get $p) (i32.const 4080)))
        (local.set $stop (i32.sub (local.get $end) (i32.const 15)))
        (if (i32.lt_u (local.get $blockEnd) (local.get $stop)) (then (local.set $stop (local.get $blockEnd))))
        (local.set $acc (v128.const i64x2 0 0))
        (loop $vectors
          ;; a matching lane of i8x16.eq is -1: subtracting it adds one
          (local.set $acc (i8x16.sub (local.get $acc) (i8x16.eq (v128.load (local.get $p)) (local.get $nl))))
          (local.set $p (i32.add (local.get $p) (i32.const 16)))
          (br_if $vectors (i32.lt_u (local.get $p) (local.get $stop))))
        ;; sum the 16 lanes
        (local.set $acc (i32x4.extadd_pairwise_i16x8_u (i16x8.extadd_pairwise_i8x16_u (local.get $acc))))
        (local.set $n (i32.add (local.get $n)
          (i32.add
            (i32.add (i32x4.extract_lane 0 (local.get $acc)) (i32x4.extract_lane 1 (local.get $acc)))
            (i32.add (i32x4.extract_lane 2 (local.get $acc)) (i32x4.extract_lane 3 (local.get $acc))))))
        (br $blocks)))
    ;; the last few bytes
    (block $tailDone
      (loop $tail
        (br_if $tailDone (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $n (i32.add (local.get $n) (i32.eq (i32.load8_u (local.get $p)) (i32.and (local.get $x) (i32.const 255)))))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $tail)))
    (local.get $n))
  ;; "starts": for each "\n" at q in [p, end), in order, the u32 q + 1 + $delta (wrapping) is stored
  ;; at $out, $out + 4, ...; it stops after $cap of them and returns how many it stored. A caller
  ;; that got $cap back goes on from the position after the last one stored ($delta: what turns a
  ;; position in memory into one in the caller's text). $out's area must not overlap [p, end).
  (func (export "starts") (param $p i32) (param $end i32) (param $out i32) (param $cap i32) (param $delta i32) (result i32)
    (local $nl v128) (local $m i32) (local $o i32) (local $limit i32) (local $base i32)
    (local.set $nl (i8x16.splat (i32.const 10)))
    (local.set $o (local.get $out))
    (local.set $limit (i32.add (local.get $out) (i32.shl (local.get $cap) (i32.const 2))))
    ;; 32 bytes a step: one bit per "\n" in a 32-bit mask, each set bit stored and cleared lowest
    ;; first (most steps of a text of 100-byte lines find none, and go on at once)
    (block $vectorsDone
      (loop $vectors
        (br_if $vectorsDone (i32.gt_u (i32.add (local.get $p) (i32.const 32)) (local.get $end)))
        (local.set $m (i32.or
          (i8x16.bitmask (i8x16.eq (v128.load (local.get $p)) (local.get $nl)))
          (i32.shl (i8x16.bitmask (i8x16.eq (v128.load offset=16 (local.get $p)) (local.get $nl))) (i32.const 16))))
        (if (local.get $m)
          (then
            (local.set $base (i32.add (i32.add (local.get $p) (i32.const 1)) (local.get $delta)))
            (loop $bits
              (if (i32.ge_u (local.get $o) (local.get $limit))
                (then (return (i32.shr_u (i32.sub (local.get $o) (local.get $out)) (i32.const 2)))))
              (i32.store (local.get $o) (i32.add (local.get $base) (i32.ctz (local.get $m))))
              (local.set $o (i32.add (local.get $o) (i32.const 4)))
              (local.set $m (i32.and (local.get $m) (i32.sub (local.get $m) (i32.const 1))))
              (br_if $bits (local.get $m)))))
        (local.set $p (i32.add (local.get $p) (i32.const 32)))
        (br $vectors)))
    ;; the last few bytes
    (block $tailDone
      (loop $tail
        (br_if $tailDone (i32.ge_u (local.get $p) (local.get $end)))
        (if (i32.eq (i32.load8_u (local.get $p)) (i32.const 10))
          (then
            (if (i32.ge_u (local.get $o) (local.get $limit))
              (then (return (i32.shr_u (i32.sub (local.get $o) (local.get $out)) (i32.const 2)))))
            (i32.store (local.get $o) (i32.add (i32.add (local.get $p) (i32.const 1)) (local.get $delta)))
            (local.set $o (i32.add (local.get $o) (i32.const 4)))))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $tail)))
    (i32.shr_u (i32.sub (local.get $o) (local.get $out)) (i32.const 2)))
  (func (export "fold") (param $p i32) (param $end i32)
    (local $v v128) (local $a v128) (local $z v128) (local $bit v128) (local $b i32)
    (local.set $a (i8x16.splat (i32.const 64)))   ;; 'A' - 1
    (local.set $z (i8x16.splat (i32.const 91)))   ;; 'Z' + 1
    (local.set $bit (i8x16.splat (i32.const 32)))
    (block $vectorsDone
      (loop $vectors
        (br_if $vectorsDone (i32.gt_u (i32.add (local.get $p) (i32.const 16)) (local.get $end)))
        (local.set $v (v128.load (local.get $p)))
        ;; unsigned compares: bytes >= 0x80 are never letters
        (v128.store (local.get $p)
          (v128.or (local.get $v)
            (v128.and (local.get $bit)
              (v128.and (i8x16.gt_u (local.get $v) (local.get $a)) (i8x16.lt_u (local.get $v) (local.get $z))))))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (br $vectors)))
    (block $tailDone
      (loop $tail
        (br_if $tailDone (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $b (i32.load8_u (local.get $p)))
        (if (i32.and (i32.gt_u (local.get $b) (i32.const 64)) (i32.lt_u (local.get $b) (i32.const 91)))
          (then (i32.store8 (local.get $p) (i32.or (local.get $b) (i32.const 32)))))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $tail))))
  ;; The first q in [p, end) with (memory[q + o1] | m1) = b1 and (memory[q + o2] | m2) = b2, or -1.
  ;; A mask is 0 (the byte itself) or 0x20 with a lower-case letter for b (either case of it: no
  ;; other byte ORs to a letter). Reads memory up to end + max(o1, o2) + 15: the caller keeps
  ;; that inside the memory.
  (func (export "pair") (param $p i32) (param $end i32) (param $o1 i32) (param $b1 i32) (param $m1 i32) (param $o2 i32) (param $b2 i32) (param $m2 i32) (result i32)
    (local $s1 v128) (local $s2 v128) (local $k1 v128) (local $k2 v128) (local $m i32) (local $a i32) (local $b i32)
    (local.set $s1 (i8x16.splat (local.get $b1)))
    (local.set $s2 (i8x16.splat (local.get $b2)))
    (local.set $k1 (i8x16.splat (local.get $m1)))
    (local.set $k2 (i8x16.splat (local.get $m2)))
    (local.set $a (i32.add (local.get $p) (local.get $o1)))
    (local.set $b (i32.add (local.get $p) (local.get $o2)))
    ;; Without masks (grep without -i), a loop without the ORs: they measured a few per cent on
    ;; a regex whose literal is searched by its pair. The two loops differ in the ORs only.
    (if (i32.eqz (i32.or (local.get $m1) (local.get $m2)))
      (then
        (block $exactDone
          (loop $exact
            (br_if $exactDone (i32.gt_u (i32.add (local.get $p) (i32.const 16)) (local.get $end)))
            ;; one bit per position where both bytes are in place; the lowest is the first
            (local.set $m (i8x16.bitmask (v128.and
              (i8x16.eq (v128.load (local.get $a)) (local.get $s1))
              (i8x16.eq (v128.load (local.get $b)) (local.get $s2)))))
            (if (local.get $m) (then (return (i32.add (local.get $p) (i32.ctz (local.get $m))))))
            (local.set $p (i32.add (local.get $p) (i32.const 16)))
            (local.set $a (i32.add (local.get $a) (i32.const 16)))
            (local.set $b (i32.add (local.get $b) (i32.const 16)))
            (br $exact))))
      (else
        (block $vectorsDone
          (loop $vectors
            (br_if $vectorsDone (i32.gt_u (i32.add (local.get $p) (i32.const 16)) (local.get $end)))
            (local.set $m (i8x16.bitmask (v128.and
              (i8x16.eq (v128.or (v128.load (local.get $a)) (local.get $k1)) (local.get $s1))
              (i8x16.eq (v128.or (v128.load (local.get $b)) (local.get $k2)) (local.get $s2)))))
            (if (local.get $m) (then (return (i32.add (local.get $p) (i32.ctz (local.get $m))))))
            (local.set $p (i32.add (local.get $p) (i32.const 16)))
            (local.set $a (i32.add (local.get $a) (i32.const 16)))
            (local.set $b (i32.add (local.get $b) (i32.const 16)))
            (br $vectors)))))
    (block $tailDone
      (loop $tail
        (br_if $tailDone (i32.ge_u (local.get $p) (local.get $end)))
        (if (i32.and
              (i32.eq (i32.or (i32.load8_u (i32.add (local.get $p) (local.get $o1))) (local.get $m1)) (local.get $b1))
              (i32.eq (i32.or (i32.load8_u (i32.add (local.get $p) (local.get $o2))) (local.get $m2)) (local.get $b2)))
          (then (return (local.get $p))))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $tail)))
    (i32.const -1)))
