"""A small typed layer over the MCP SDK's low-level server: tools, prompts and resources
declared as values, input schemas made from our own argument declarations (queries/declare.py),
and arguments checked here, so that every error an agent sees is one clear sentence of ours.

The SDK's high-level server infers schemas from function signatures and words its own errors
("Error executing tool …", pydantic's text); wrapping it meant replacing its methods at run time.
Here the low-level server gets our handlers instead, and nothing of the SDK is patched.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import InvalidInput, Surface, WebnovelError
from ..messages import say
from ..queries import Arg
from ..queries.arguments import checked_arguments

if TYPE_CHECKING:
    import mcp_types as types
    from mcp.server.context import ServerRequestContext
    from mcp.server.lowlevel import Server

logger = logging.getLogger(__name__)
Json = Any  # the contract's JSON shapes: a mapping or a list
Arguments = Mapping[str, Any]


@dataclass(frozen=True)
class Text:
    """A tool's answer written for the model to read (a pack rendered as a prompt), sent as it
    is rather than as JSON."""

    text: str


_JSON_TYPES = {"int": "integer", "str": "string", "bool": "boolean", "object": "object"}


@dataclass(frozen=True, kw_only=True)
class Tool:
    """One tool: its name, the description agents read, its arguments, and the call."""

    name: str
    description: str
    args: tuple[Arg, ...]
    call: Callable[[dict[str, Any]], Awaitable[Json | Text]]

    def input_schema(self) -> dict[str, Any]:
        return {
            "type": "object",
            "properties": {arg.name: property_schema(arg) for arg in self.args},
            "required": [arg.name for arg in self.args if arg.required],
        }


@dataclass(frozen=True, kw_only=True)
class Prompt:
    name: str
    description: str
    args: tuple[Arg, ...]
    render: Callable[[dict[str, Any]], str]


@dataclass(frozen=True, kw_only=True)
class Resource:
    uri: str
    description: str
    mime_type: str
    read: Callable[[], str]


def property_schema(arg: Arg) -> dict[str, Any]:
    """The JSON Schema of one argument: its own schema, or its type (with its choices and its
    default, when it has one); described by the argument's help (a catalogue key, said in the
    server's language), which an agent reads to fill it in.

    Every session pays for the tool list, so a schema says only what an agent acts on. An
    argument that may be left out is left out of `required`, and that is all it needs: no
    `anyOf` with `null` and no `"default": null` (an agent omits it; a `null` given is still
    taken as left out, queries/arguments.py)."""
    described = {"description": say(arg.help)}
    if arg.schema is not None:
        return {**arg.schema, **described}  # in the server's language, not the schema's own
    schema: dict[str, Any] = {"type": _JSON_TYPES[arg.type]}
    if arg.type == "str" and arg.choices is None:
        schema["maxLength"] = arg.max_chars  # checked by us too, with a sentence of ours
    if arg.choices is not None:
        schema["enum"] = list(arg.choices)
    if not arg.required and arg.default is not None:
        schema["default"] = arg.default
    return {**schema, **described}


def _error(error: dict[str, Any]) -> types.CallToolResult:
    """A tool's error, once: `isError`, and one text block holding `{"code", "message",
    "details"}` (docs/contract.md), so that an agent acts on the code and reads the sentence."""
    import mcp_types as types

    text = json.dumps(error, ensure_ascii=False, separators=(",", ":"))
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=True)


class ToolServer:
    """An MCP server of tools, prompts and resources on the SDK's low-level server. Tool
    errors (ours, bad arguments, the store's) come back as tool results marked as errors, never
    as protocol errors, so the agent reads the code and the sentence and the server goes on."""

    def __init__(self, name: str, *, instructions: str, version: str) -> None:
        self.name = name
        self.instructions = instructions
        self.version = version
        self.tools: dict[str, Tool] = {}
        self.prompts: dict[str, Prompt] = {}
        self.resources: dict[str, Resource] = {}

    def add_tool(self, tool: Tool) -> None:
        if tool.name in self.tools:
            raise ValueError(f"tool {tool.name} is declared twice")
        self.tools[tool.name] = tool

    def add_prompt(self, prompt: Prompt) -> None:
        self.prompts[prompt.name] = prompt

    def add_resource(self, resource: Resource) -> None:
        self.resources[resource.uri] = resource

    async def call(self, name: str, given: Arguments) -> types.CallToolResult:
        """A tool's answer: its JSON as structured content (the contract, §7; a list wrapped as
        {"result": …}) with the same compact JSON as its text, for hosts that read only the
        text, as the MCP spec asks; or, for what is written to be read (a rendered pack), that
        text alone, with no JSON beside it; or its error as `{"code", "message", "details"}`.

        A host shows the model one of the two, never both, so an agent pays for its answer
        once; the rendered pack travels without the JSON it was made from (it was 25 times
        the pack)."""
        import mcp_types as types

        tool = self.tools.get(name)
        try:
            if tool is None:
                raise InvalidInput.of("unknown_tool", name=name)
            data = await tool.call(checked_arguments(name, tool.args, given))
        except WebnovelError as exc:  # ours, the store's included: said with its code
            return _error(exc.as_json(Surface.MCP))
        except Exception as exc:
            # a bug of ours: said, logged, and the server goes on
            logger.exception("tool %s failed", name)
            said = say("internal_error", kind=type(exc).__name__, detail=exc)
            return _error(
                {"code": "internal_error", "message": said, "details": {"kind": type(exc).__name__}}
            )
        if isinstance(data, Text):
            return types.CallToolResult(content=[types.TextContent(type="text", text=data.text)])
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=text)],
            structured_content=data if isinstance(data, dict) else {"result": data},
        )

    def lowlevel(self) -> Server[Any]:
        """The SDK's low-level server with these tools, prompts and resources."""
        from mcp.server.lowlevel import Server

        return Server(
            self.name,
            version=self.version,
            instructions=self.instructions,
            get_tool_input_schema=lambda name: (
                self.tools[name].input_schema() if name in self.tools else None
            ),
            on_list_tools=self._list_tools,
            on_call_tool=self._call_tool,
            on_list_prompts=self._list_prompts,
            on_get_prompt=self._get_prompt,
            on_list_resources=self._list_resources,
            on_read_resource=self._read_resource,
        )

    async def _list_tools(
        self, ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        import mcp_types as types

        return types.ListToolsResult(
            tools=[
                types.Tool(name=t.name, description=t.description, input_schema=t.input_schema())
                for t in self.tools.values()
            ]
        )

    async def _call_tool(
        self, ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        return await self.call(params.name, params.arguments or {})

    async def _list_prompts(
        self, ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> types.ListPromptsResult:
        import mcp_types as types

        return types.ListPromptsResult(
            prompts=[
                types.Prompt(
                    name=p.name,
                    description=p.description,
                    arguments=[
                        types.PromptArgument(
                            name=a.name, description=say(a.help), required=a.required
                        )
                        for a in p.args
                    ],
                )
                for p in self.prompts.values()
            ]
        )

    async def _get_prompt(
        self, ctx: ServerRequestContext[Any, Any], params: types.GetPromptRequestParams
    ) -> types.GetPromptResult:
        import mcp_types as types
        from mcp.shared.exceptions import MCPError

        prompt = self.prompts.get(params.name)
        if prompt is None:
            raise MCPError(
                code=types.INVALID_PARAMS, message=say("unknown_prompt", name=params.name)
            )
        try:
            arguments = checked_arguments(prompt.name, prompt.args, params.arguments or {})
        except InvalidInput as exc:
            raise MCPError(code=types.INVALID_PARAMS, message=exc.said(Surface.MCP)) from exc
        text = prompt.render(arguments)
        return types.GetPromptResult(
            description=prompt.description,
            messages=[
                types.PromptMessage(role="user", content=types.TextContent(type="text", text=text))
            ],
        )

    async def _list_resources(
        self, ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> types.ListResourcesResult:
        import mcp_types as types

        return types.ListResourcesResult(
            resources=[
                types.Resource(
                    uri=r.uri,
                    name=r.uri.rsplit("/", 1)[-1],
                    description=r.description,
                    mime_type=r.mime_type,
                )
                for r in self.resources.values()
            ]
        )

    async def _read_resource(
        self, ctx: ServerRequestContext[Any, Any], params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        import mcp_types as types
        from mcp.shared.exceptions import MCPError

        resource = self.resources.get(str(params.uri))
        if resource is None:
            raise MCPError(
                code=types.INVALID_PARAMS, message=say("unknown_resource", uri=params.uri)
            )
        try:
            text = resource.read()
        except WebnovelError as exc:  # a refused book, the store gone: our sentence, not a trace
            raise MCPError(code=types.INTERNAL_ERROR, message=exc.said(Surface.MCP)) from exc
        return types.ReadResourceResult(
            contents=[
                types.TextResourceContents(
                    uri=resource.uri, text=text, mime_type=resource.mime_type
                )
            ]
        )
