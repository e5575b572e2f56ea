/*
 * The dimension names the C API tests of labels, blocks, tensor maps and
 * files share: NAMES_X is the list of names X spells (NAMES_AB is {"a", "b"}),
 * or a longer word (NAMES_SAMPLE_G is {"sample", "g"}).
 *
 * Static constants in a header: GCC and Clang warn of an unused one only in
 * the file that defines it, so a program may leave most of them unused. They
 * are grouped in a few declarations, by how many names and of what kind.
 */
#ifndef MTS_TESTS_TEST_NAMES_H
#define MTS_TESTS_TEST_NAMES_H

/* one letter */
static const char *const NAMES_A[] = {"a"}, *const NAMES_B[] = {"b"}, *const NAMES_C[] = {"c"},
                  *const NAMES_D[] = {"d"}, *const NAMES_K[] = {"k"}, *const NAMES_P[] = {"p"},
                  *const NAMES_Q[] = {"q"}, *const NAMES_S[] = {"s"}, *const NAMES_X[] = {"x"};

/* two letters */
static const char *const NAMES_AB[] = {"a", "b"}, *const NAMES_BA[] = {"b", "a"},
                  *const NAMES_KL[] = {"k", "l"}, *const NAMES_PQ[] = {"p", "q"},
                  *const NAMES_ST[] = {"s", "t"}, *const NAMES_XY[] = {"x", "y"},
                  *const NAMES_K_P[] = {"k", "p"}, *const NAMES_S_K[] = {"s", "k"};

/* three letters */
static const char *const NAMES_ABC[] = {"a", "b", "c"};

/* one word */
static const char *const NAMES_CELL[] = {"abc"}, *const NAMES_COMPONENT[] = {"component"},
                  *const NAMES_KEY_1[] = {"key_1"}, *const NAMES_KEY_2[] = {"key_2"},
                  *const NAMES_ONLY[] = {"only"}, *const NAMES_PROPERTIES[] = {"properties"},
                  *const NAMES_SAMPLE[] = {"sample"}, *const NAMES_SAMPLES[] = {"samples"},
                  *const NAMES_UNDERSCORE[] = {"_"}, *const NAMES_XYZ[] = {"xyz"},
                  *const NAMES_ZZ[] = {"zz"};

/* two words */
static const char *const NAMES_KEYS[] = {"key_1", "key_2"},
                  *const NAMES_KEY_1_PROPERTIES[] = {"key_1", "properties"},
                  *const NAMES_SAMPLES_KEY_2[] = {"samples", "key_2"},
                  *const NAMES_SAMPLE_G[] = {"sample", "g"},
                  *const NAMES_SAMPLE_PARAMETER[] = {"sample", "parameter"},
                  *const NAMES_SYSTEM_G[] = {"system", "g"};

#endif
