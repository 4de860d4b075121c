// SPDX-License-Identifier: GPL-2.0
/*
 * blkgen's pure cores, compiled into blkgen_test.ko from the same source
 * as into blkgen.ko (kbuild links an object into one module only): the
 * KUnit cases of test.c test the code the module runs.
 */
#include "hist.c"
#include "pattern.c"
#include "rate.c"
#include "replay-map.c"
#include "stamp.c"
