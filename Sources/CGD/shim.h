#include <gd.h>
#include <gdfontg.h>
