-- Runs a Quarto shortcode extension under pandoc's Lua (`pandoc lua quarto_shortcode.lua EXT CALLS`),
-- for tests/e2e/test_recipes_built.py: Quarto itself is not on a package registry here.
-- Stands in for the part of Quarto's Lua API the bytepair extension uses (quarto.doc.is_format,
-- quarto.doc.include_text) and calls its shortcode as Quarto does: args and kwargs as Inlines, the
-- page's metadata, context "block". CALLS: a JSON file {meta: {key: text}, calls: [{name, args,
-- kwargs}]}; prints JSON {blocks: [html], header: [html]}.
local ext_path, calls_path = arg[1], arg[2]
local header = {}
quarto = {
  doc = {
    is_format = function(f)
      return f == "html" or f == "html:js"
    end,
    include_text = function(where, text)
      assert(where == "in-header", "include_text: unexpected location " .. tostring(where))
      table.insert(header, text)
    end,
  },
}
local shortcodes = dofile(ext_path)
local f = assert(io.open(calls_path, "r"))
local spec = pandoc.json.decode(f:read("a"), false)
f:close()
local meta = {}
for k, v in pairs(spec.meta) do
  meta[k] = pandoc.Inlines({ pandoc.Str(v) })
end
local blocks = {}
for _, call in ipairs(spec.calls) do
  local args = {}
  for _, a in ipairs(call.args) do
    table.insert(args, pandoc.Inlines({ pandoc.Str(a) }))
  end
  local kwargs = {}
  for k, v in pairs(call.kwargs) do
    kwargs[k] = pandoc.Inlines({ pandoc.Str(v) })
  end
  local out = shortcodes[call.name](args, kwargs, meta, nil, "block")
  assert(out.t == "RawBlock" and out.format == "html", "expected an html RawBlock, got " .. tostring(out.t))
  table.insert(blocks, out.text)
end
print(pandoc.json.encode({ blocks = blocks, header = header }))
