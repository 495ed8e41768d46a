build/obj/selftests/util.o: /work/main/userspace/util.c \
 /work/main/userspace/util.h
/work/main/userspace/util.h:
