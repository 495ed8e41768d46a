build/obj/selftests/rawalk_parse.o: /work/main/userspace/rawalk_parse.c \
 /work/main/userspace/rawalk.h /work/main/userspace/util.h
/work/main/userspace/rawalk.h:
/work/main/userspace/util.h:
