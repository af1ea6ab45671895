/**
 * Run by both test runners' configuration, so every process they start inherits it.
 *
 * On the machines the tests run on, each new 4 KB page of memory is faulted in from the host:
 * about 3 s for every GB touched. Hashing a password (scrypt, 32 MB) cost 160 ms there, most of
 * it in faults, and every sign-up and sign-in in the tests hashes one. glibc's huge-page option
 * backs its large allocations with transparent huge pages, 512 times fewer faults: 60 ms a hash.
 * It changes nothing but speed, and nothing where huge pages are off or not offered.
 */
process.env.GLIBC_TUNABLES ??= "glibc.malloc.hugetlb=1";
