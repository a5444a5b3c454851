"""A cache-line prefetch for numba kernels (LLVM's ``llvm.prefetch``), which numba does not offer."""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


@intrinsic
def prefetch(typingctx: object, address: types.Type) -> tuple:
    """Ask the CPU to start loading the cache line at ``address``, to be read soon."""
    sig = types.void(types.uintp)

    def codegen(context: object, builder: ir.IRBuilder, signature: object, args: list) -> object:
        byte_pointer = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fn = cgutils.get_or_insert_function(
            builder.module,
            ir.FunctionType(ir.VoidType(), [byte_pointer, i32, i32, i32]),
            "llvm.prefetch.p0i8",
        )
        # A read (0), kept in every cache level (3), of data (1).
        builder.call(
            fn,
            [
                builder.inttoptr(args[0], byte_pointer),
                ir.Constant(i32, 0),
                ir.Constant(i32, 3),
                ir.Constant(i32, 1),
            ],
        )
        return context.get_dummy_value()

    return sig, codegen
