"""Plain data between the trusted checker and the sandboxed answer worker, and calls both ways.

Nothing that crosses is executable: values are JSON (numbers, strings, lists, tuples, dicts)
and tensors are rebuilt from their raw bytes as plain ``torch.Tensor``s, so no subclass, no
custom ``__eq__`` and no pickled object of the student's can reach the checker. A callable
crosses as a handle: calling it on the other side calls back. Each side keeps the graphs of
the calls it answered, so gradients flow back through them (:meth:`Peer.vjp`).

This module runs on both sides, so it imports only the standard library and torch.
"""
import collections
import json
import struct
from collections.abc import Callable
from typing import Any, BinaryIO

import torch

_HEADER = struct.Struct("<II")  # length of the JSON part, number of tensor buffers
_TORCH_FUNCTIONS = ("torch", "torch.nn.functional")  # passed by name: the other side has the same ones
# taken at import, before any answer runs: an answer that replaces torch.nn in its own process breaks only itself
_TENSOR_TYPES, _FUNCTIONAL = (torch.Tensor, torch.nn.Parameter), torch.nn.functional


class RemoteError(Exception):
    """The other side raised while answering; ``kind`` is the exception's class name."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind


class ChangedInPlace(Exception):
    """The other side's function changed an argument it was given in place (a tensor, list, dict or set)."""


class PipeClosed(EOFError):
    """The other end of the pipe is gone (it exited, crashed or was killed)."""


class Opaque:
    """Stands for a value of a type that may not cross (``kind`` names it): it equals nothing."""

    def __init__(self, kind: str, text: str):
        self.kind, self.text = kind, text

    def __repr__(self) -> str:
        return self.text

    def __eq__(self, other: Any) -> bool:
        return False

    __hash__ = None


def _torch_function_name(fn: Callable) -> str | None:
    """``torch.relu`` for torch's own function objects (the other side has the same ones), else None."""
    name = getattr(fn, "__name__", None)
    for home in _TORCH_FUNCTIONS:
        owner = torch if home == "torch" else _FUNCTIONAL
        if isinstance(name, str) and getattr(owner, name, None) is fn:
            return f"{home}.{name}"
    return None


class Peer:
    """One end of the pipe: sends requests, answers the other end's, nested to any depth."""

    def __init__(self, reader: BinaryIO, writer: BinaryIO, on_wait: Callable[[], None] | None = None,
                 mirrors_changes: bool = True):
        self.reader, self.writer = reader, writer
        # True: the other side's in-place changes to our arguments are made here too. The checker says False: its
        # arguments stay as the test made them (the oracles compute from them); a tensor changed in place is an
        # error instead (the tests check that inputs are left alone), a list, dict or set is simply not changed
        self.mirrors_changes = mirrors_changes
        self.on_wait = on_wait  # called before each blocking read (the checker enforces its deadline there)
        self.exported: dict[int, Callable] = {}  # handles of our callables the other side may call
        self.graphs: dict[int, tuple[list[torch.Tensor], list[torch.Tensor]]] = {}  # call id: (inputs, outputs)
        self.handlers: dict[str, Callable[[dict, Any], Any]] = {"call": self._answer_call, "vjp": self._answer_vjp,
                                                                "release": self._answer_release}
        self._next_id = 0
        self.counted: dict | None = None  # what the other side counted in the last call (grading.student.watch)

    # --- encoding -------------------------------------------------------------------------------
    def encode(self, value: Any, buffers: list[bytes], tensors: list[torch.Tensor] | None = None,
               containers: list | None = None) -> Any:
        """``value`` as JSON-able data; its tensors (and mutable containers) are also listed, in order."""
        kind = type(value)
        if value is None or kind in (bool, int, float, str):
            return value
        if isinstance(value, float):  # a subclass (numpy.float64) is a float: its value crosses, not its methods
            return float.__float__(value)
        if containers is not None and kind in (list, dict, set):
            containers.append(value)
        if kind in (list, tuple, set, frozenset):
            return {kind.__name__: [self.encode(v, buffers, tensors, containers) for v in value]}
        if kind is range:
            return {"range": [value.start, value.stop, value.step]}
        if kind is collections.OrderedDict:  # a state_dict()
            return {"ordereddict": [[k, self.encode(v, buffers, tensors, containers)] for k, v in value.items()
                                    if type(k) is str]}
        if kind is dict:
            return {"dict": [[self.encode(k, buffers, tensors, containers), self.encode(v, buffers, tensors, containers)]
                             for k, v in dict.items(value)]}
        if kind is torch.Size:
            return {"size": [int(v) for v in value]}
        if kind is torch.dtype:
            return {"dtype": str(value).removeprefix("torch.")}
        if kind is torch.device:
            return {"device": str(value)}
        if kind is torch.Generator:  # a copy: its state travels there, and back once the call returns (Peer.call)
            buffers.append(value.get_state().numpy().tobytes())
            return {"generator": len(buffers) - 1, "device": str(value.device)}
        if kind in _TENSOR_TYPES:
            if tensors is not None:
                tensors.append(value)
            flat = torch.empty(value.numel(), dtype=value.dtype).copy_(value.detach().reshape(-1))  # dense, on the CPU
            buffers.append(flat.view(torch.uint8).numpy().tobytes() if flat.numel() else b"")
            return {"tensor": len(buffers) - 1, "dtype": str(value.dtype).removeprefix("torch."),
                    "shape": list(value.shape), "device": value.device.type, "grad": bool(value.requires_grad)}
        if callable(value) and not isinstance(value, type):
            name = _torch_function_name(value)
            if name:
                return {"torch_function": name}
            handle = self._new_id()
            self.exported[handle] = value
            return {"callable": handle, "name": str(getattr(value, "__name__", kind.__name__))[:80]}
        return {"opaque": f"{kind.__module__}.{kind.__qualname__}"[:120], "text": _safe_repr(value)}

    def decode(self, value: Any, buffers: list[bytes], tensors: list[torch.Tensor] | None = None,
               containers: list | None = None) -> Any:
        if not isinstance(value, dict):
            return value
        tag = next(iter(value))  # every encoded value's first key names its kind
        body = value[tag]
        if tag in ("list", "set", "dict"):  # listed before their items, as encode() lists them
            container = {"list": list, "set": set, "dict": dict}[tag]()
            if containers is not None:
                containers.append(container)
            if tag == "dict":
                container.update((self.decode(k, buffers, tensors, containers),
                                  self.decode(v, buffers, tensors, containers)) for k, v in body)
            else:
                items = [self.decode(v, buffers, tensors, containers) for v in body]
                container.extend(items) if tag == "list" else container.update(items)
            return container
        if tag == "ordereddict":
            return collections.OrderedDict((k, self.decode(v, buffers, tensors, containers)) for k, v in body)
        if tag in ("tuple", "frozenset"):
            return (tuple if tag == "tuple" else frozenset)(self.decode(v, buffers, tensors, containers) for v in body)
        if tag == "range":
            return range(*body)
        if tag == "size":
            return torch.Size(body)
        if tag == "dtype":
            return getattr(torch, body)
        if tag == "device":
            return torch.device(body)
        if tag == "generator":
            generator = torch.Generator(value["device"] if torch.cuda.is_available() else "cpu")
            generator.set_state(torch.frombuffer(bytearray(buffers[body]), dtype=torch.uint8))
            return generator
        if tag == "tensor":
            dtype = getattr(torch, value["dtype"])
            raw = buffers[body]
            flat = torch.frombuffer(bytearray(raw), dtype=torch.uint8).view(dtype) if raw else torch.empty(0, dtype=dtype)
            tensor = flat.reshape(value["shape"])
            if value["device"] != "cpu":
                tensor = tensor.to(value["device"] if torch.cuda.is_available() else "cpu")
            tensor.requires_grad_(value["grad"] and (dtype.is_floating_point or dtype.is_complex))
            if tensors is not None:
                tensors.append(tensor)
            return tensor
        if tag == "torch_function":
            home, _, name = body.rpartition(".")
            return getattr(torch if home == "torch" else _FUNCTIONAL, name)
        if tag == "callable":
            return _Stub(self, body, value.get("name", "callback"))
        kind = type(body.rpartition(".")[2] or "object", (Opaque,), {})  # named as the sender's type, for messages
        return kind(body, value.get("text", ""))

    # --- framing ---------------------------------------------------------------------------------
    def send(self, message: dict, buffers: list[bytes] = ()) -> None:
        header = json.dumps(message).encode()
        try:
            self.writer.write(_HEADER.pack(len(header), len(buffers)) + header)
            for buffer in buffers:
                self.writer.write(struct.pack("<Q", len(buffer)) + buffer)
            self.writer.flush()
        except BrokenPipeError as error:
            raise PipeClosed("the other side of the grading pipe stopped") from error

    def receive(self) -> tuple[dict, list[bytes]]:
        size, count = _HEADER.unpack(self._read(_HEADER.size))
        message = json.loads(self._read(size))
        buffers = [self._read(struct.unpack("<Q", self._read(8))[0]) for _ in range(count)]
        return message, buffers

    def _read(self, size: int) -> bytes:
        data = b""
        while len(data) < size:
            if self.on_wait:
                self.on_wait()
            chunk = self.reader.read(size - len(data))
            if not chunk:
                raise PipeClosed("the other side of the grading pipe stopped")
            data += chunk
        return data

    # --- requests ----------------------------------------------------------------------------------
    def request(self, op: str, body: dict, buffers: list[bytes] = ()) -> tuple[dict, list[bytes]]:
        """Send a request and serve the other side's nested requests until its reply comes."""
        self.send({"op": op, **body}, buffers)
        return self.serve_until_reply()

    def serve_until_reply(self) -> tuple[dict, list[bytes]]:
        while True:
            message, buffers = self.receive()
            if message["op"] == "reply":
                if "error" in message:
                    raise RemoteError(message["error"], message.get("message", ""))
                return message, buffers
            self.answer(message, buffers)

    def answer(self, message: dict, buffers: list[bytes]) -> None:
        out: list[bytes] = []
        try:
            reply = self.handlers[message["op"]](message, buffers, out)
        except BaseException as error:  # noqa: BLE001 - reported to the other side, which raises it
            if isinstance(error, PipeClosed):
                raise
            self.send({"op": "reply", "error": type(error).__name__, "message": _safe_str(error)})
            return
        self.send({"op": "reply", **(reply or {})}, out)

    def call(self, handle: Any, args: tuple, kwargs: dict, extra: dict | None = None) -> Any:
        """Call the other side's callable ``handle``; tensors that need gradients get them through it."""
        buffers: list[bytes] = []
        inputs: list[torch.Tensor] = []
        containers: list = []
        encoded = self.encode([list(args), kwargs], buffers, inputs, containers)
        reply, out = self.request("call", {"handle": handle, "args": encoded, "grad": torch.is_grad_enabled(),
                                           **(extra or {})}, buffers)
        self.counted = reply.get("counted")  # the PyTorch calls the other side counted, when asked to (extra)
        outputs: list[torch.Tensor] = []
        result = self.decode(reply["result"], out, outputs)
        for generator, state in zip(_generators([args, kwargs]), reply.get("generators", [])):
            # what the far side drew advances ours, as a local call would: a test sees how many numbers it drew
            generator.set_state(torch.frombuffer(bytearray(out[state]), dtype=torch.uint8))
        changed, refilled = self.decode(reply["changed"], out)
        if not self.mirrors_changes:
            if changed or refilled:
                what = [f"{len(items)} of the {kind} it was given" for items, kind in
                        ((changed, "tensors"), (refilled, "lists, dicts or sets")) if items]
                raise ChangedInPlace(f"changed {' and '.join(what)} in place")
            changed, refilled = [], []
        with torch.no_grad():  # the function changed these arguments in place: so it does on the caller's side
            for index, value in changed:
                inputs[index].copy_(value)
        for index, value in refilled:
            _refill(containers[index + 1], value)  # index 0 is the [args, kwargs] wrapper
        differentiable = [t for t in inputs if t.requires_grad]
        if reply.get("graph") is None or not differentiable or not torch.is_grad_enabled():
            for tensor in outputs:
                tensor.requires_grad_(False)
            return result
        return _attach(self, reply["graph"], differentiable, outputs, result)

    def vjp(self, graph: int, grad_outputs: list[torch.Tensor | None]) -> list[torch.Tensor | None]:
        buffers: list[bytes] = []
        encoded = self.encode([g.detach() if g is not None else None for g in grad_outputs], buffers)
        reply, out = self.request("vjp", {"graph": graph, "grads": encoded}, buffers)
        return [g.detach() if isinstance(g, torch.Tensor) else None for g in self.decode(reply["grads"], out)]

    # --- answering -----------------------------------------------------------------------------------
    def _answer_call(self, message: dict, buffers: list[bytes], out: list[bytes]) -> dict:
        inputs: list[torch.Tensor] = []
        containers: list = []
        args, kwargs = self.decode(message["args"], buffers, inputs, containers)
        containers = containers[1:]  # not the [args, kwargs] wrapper
        versions, contents = [t._version for t in inputs], [_contents(c) for c in containers]
        function = self.resolve(message)
        with torch.set_grad_enabled(message["grad"]):
            result = function(*args, **kwargs)
        outputs: list[torch.Tensor] = []
        encoded = self.encode(result, out, outputs)
        changed = [[i, t] for i, (t, v) in enumerate(zip(inputs, versions)) if t._version != v]
        refilled = [[i, c] for i, (c, before) in enumerate(zip(containers, contents)) if _contents(c) != before]
        graph = None
        differentiable = [t for t in inputs if t.requires_grad]
        if differentiable and any(t.requires_grad for t in outputs):
            graph = self._new_id()
            self.graphs[graph] = (differentiable, outputs)
        generators = []
        for generator in _generators([args, kwargs]):  # their states after the call, in the order they were sent
            out.append(generator.get_state().numpy().tobytes())
            generators.append(len(out) - 1)
        return {"result": encoded, "graph": graph, "changed": self.encode([changed, refilled], out),
                "generators": generators}

    def resolve(self, message: dict) -> Callable:
        """The callable a call request names (the worker overrides this for its answers)."""
        return self.exported[message["handle"]]

    def _answer_vjp(self, message: dict, buffers: list[bytes], out: list[bytes]) -> dict:
        inputs, outputs = self.graphs[message["graph"]]
        grads = self.decode(message["grads"], buffers)
        pairs = [(o, g if g is not None else torch.zeros_like(o)) for o, g in zip(outputs, grads) if o.requires_grad]
        result = torch.autograd.grad([o for o, _ in pairs], inputs, [g for _, g in pairs], retain_graph=True,
                                     allow_unused=True)
        return {"grads": self.encode(list(result), out)}

    def _answer_release(self, message: dict, buffers: list[bytes], out: list[bytes]) -> dict:
        self.graphs.pop(message["graph"], None)
        return {}

    def _new_id(self) -> int:
        self._next_id += 1
        return self._next_id


class _Stub:
    """The other side's callable: calling it calls back across the pipe."""

    def __init__(self, peer: Peer, handle: int, name: str):
        self.peer, self.handle, self.__name__ = peer, handle, name

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.peer.call(self.handle, args, kwargs)


class _Gradient(torch.autograd.Function):
    """Links outputs computed on the other side to the inputs sent there; backward asks it for the VJP."""

    @staticmethod
    def forward(ctx, peer: Peer, graph: int, n_inputs: int, *tensors: torch.Tensor):
        ctx.peer, ctx.graph, ctx.n_inputs = peer, graph, n_inputs
        return tuple(o.detach().clone() for o in tensors[n_inputs:])

    @staticmethod
    def backward(ctx, *grad_outputs: torch.Tensor):
        grads = ctx.peer.vjp(ctx.graph, list(grad_outputs))
        return (None, None, None, *grads, *([None] * len(grad_outputs)))


def _attach(peer: Peer, graph: int, inputs: list[torch.Tensor], outputs: list[torch.Tensor], result: Any) -> Any:
    """``result`` with its differentiable output tensors replaced by ones whose gradients come from ``peer``."""
    wanted = [o.requires_grad for o in outputs]
    for tensor in outputs:
        tensor.requires_grad_(False)
    linked = _Gradient.apply(peer, graph, len(inputs), *inputs, *outputs)
    replacement = {id(o): (l if w else o) for o, l, w in zip(outputs, linked, wanted)}
    return _replace(result, replacement)


def _replace(value: Any, replacement: dict[int, torch.Tensor]) -> Any:
    if isinstance(value, torch.Tensor):
        return replacement.get(id(value), value)
    if type(value) in (list, tuple):
        return type(value)(_replace(v, replacement) for v in value)
    if type(value) is dict:
        return {k: _replace(v, replacement) for k, v in value.items()}
    return value


def _generators(value: Any) -> list[torch.Generator]:
    """The generators among a call's arguments, in the order encode() meets them (in lists, tuples and dicts' values;
    a set's order is not the same on both sides, so one inside a set is not carried back)."""
    if type(value) is torch.Generator:
        return [value]
    if type(value) in (list, tuple):
        return [g for item in value for g in _generators(item)]
    if type(value) in (dict, collections.OrderedDict):
        return [g for item in dict.values(value) for g in _generators(item)]
    return []


def _contents(container: list | dict | set) -> list[int]:
    """What a container holds, by identity: it changed in place when this changes."""
    items = dict.items(container) if type(container) is dict else container
    return [id(x) for item in items for x in (item if type(container) is dict else (item,))]


def _refill(container: list | dict | set, value: list | dict | set) -> None:
    """Give ``container`` the contents ``value`` (the far side changed its copy in place)."""
    if type(container) is list:
        container[:] = value
    else:
        container.clear()
        container.update(value)


def _safe_repr(value: Any) -> str:
    try:
        return object.__repr__(value)[:200]
    except Exception:  # noqa: BLE001
        return "<unprintable>"


def _safe_str(error: BaseException) -> str:
    try:
        return str(error)[:2000]
    except Exception:  # noqa: BLE001 - a student's exception may break str()
        return "<unprintable error>"
