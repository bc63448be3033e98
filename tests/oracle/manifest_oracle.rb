# frozen_string_literal: true
#
# Puppet 7.23's own parser as the oracle for hiera-ls's manifest reader.
#
# Reads .pp (and .epp) file paths (one per line on stdin, or as arguments) and writes one JSON
# line per file, in order, after a first line {"ready": true, "puppet": VERSION}.  One process parses
# thousands of files (Puppet loads once, about a second).  Nothing is evaluated: each file goes
# through Puppet::Pops::Parser::Parser (lexer and grammar, exactly as `puppet parser validate`
# and the compiler read it; an .epp template through its EppParser), then Puppet's validator,
# then this script walks the model.
# The Python side is tests/oracle/manifests.py.
#
# Answer for a file Puppet parses:
#   {"path": P, "ok": true, "validation": [MSG...],
#    "definitions": [{"kind": "class"|"define"|"type alias"|"function"|"plan",
#                     "name": N, "span": SPAN (the name token), "parent": N|null,
#                     "alias_text": T|null,
#                     "params": [{"name": N, "span": SPAN (the $name token),
#                                 "type_text": T|null, "default_text": T|null,
#                                 "default_class": MODEL_CLASS|null}]}],
#    "lookups": [{"function": F, "key": K|null, "span": SPAN (the key argument),
#                 "form": "name"|"array"|"options hash" (one entry per name an array holds),
#                 "text_span": SPAN|null (a quoted key's content), "call_span": [L, C] (where
#                 the call starts), "argument": MODEL_CLASS,
#                 "style": "call"|"method"}],
#    "inclusions": [{"name": N, "function": "include"|"contain"|"require"|"class",
#                    "span": SPAN, "text_span": SPAN|null, "style": "call"|"method"|"resource"}]}
# and for one it does not: {"path": P, "ok": false, "error": MSG, "line": L|null, "col": C|null}.
#
# Names are as Puppet's model holds them (nested classes fully qualified by the parser, a
# leading '::' kept); the Python side normalises.  Texts are the exact source of the
# expression (the locator's offset and length: a heredoc default is its '@(TAG)' opener).
# SPAN is [line, col, end_line, end_col], 0-based, columns in Unicode code points (Puppet's
# locator counts bytes; this converts), as hiera-ls's spans.  Validation messages are what
# Puppet's validator says of a file that parsed (an illegal name, a misplaced definition).
# Never runs user code: no evaluation, no loaders, no settings beyond Puppet's defaults.

require 'json'

ANSWERS = $stdout.dup
ANSWERS.sync = true
$stdout.reopen($stderr)

require 'puppet'
Puppet.initialize_settings(['--confdir', '/nonexistent-hiera-ls-oracle',
                            '--vardir', '/tmp/hiera-ls-manifest-oracle'])

LOOKUP_FUNCTIONS = %w[lookup hiera hiera_array hiera_hash hiera_include].freeze
INCLUDE_FUNCTIONS = %w[include contain require].freeze
M = Puppet::Pops::Model

# Byte offsets of the main locator -> 0-based line and code-point column.
class Positions
  def initialize(locator)
    @locator = locator
    @string = locator.string
    @index = locator.line_index
  end

  def at(offset)
    line = @index.bsearch_index { |start| start > offset }
    line = (line.nil? ? @index.length : line) - 1
    start = @index[line]
    col = @string.byteslice(start, offset - start).force_encoding(Encoding::UTF_8).length
    [line, col]
  end

  def span(offset, length)
    at(offset) + at(offset + length)
  end

  def size
    @string.bytesize
  end

  def text(offset, length)
    @string.byteslice(offset, length).force_encoding(Encoding::UTF_8)
  end
end

def model_class(expr)
  expr.nil? ? nil : expr.class.name.split('::').last
end

OPENERS = %i[LBRACK LISTSTART LBRACE SELBRACE LPAREN WSLPAREN].freeze
CLOSERS = %i[RBRACK RBRACE RPAREN].freeze

# The file's tokens, as Puppet's own lexer cuts them ([type, offset, length], byte offsets,
# in order), without those inside heredoc bodies.  Puppet's model records where an
# expression's first or main token is (a binary expression's offset and length are its
# operator's; a type alias's type has a zero length; closing brackets belong to no node), so
# the exact text of a default, a type or an alias is cut from tokens instead: the model says
# where a parameter is, the lexer where its parts end.
class Tokens
  def initialize(path)
    lexer = Puppet::Pops::Parser::Lexer2.new
    lexer.lex_file(path)
    main = lexer.locator
    @tokens = lexer.fullscan.filter_map do |type, value|
      next nil if type == false || !value.respond_to?(:locator) || !value.locator.equal?(main)

      [type, value.offset, value.length]
    end
  end

  # Index of the first token at or after a byte offset.
  def at(offset)
    @tokens.bsearch_index { |t| t[1] >= offset } || @tokens.length
  end

  def [](index)
    @tokens[index]
  end

  # [start, end) of one expression from token index i: brackets balanced, ending before a
  # token in stop (at depth 0), or at depth 0 before anything but an access '[' when
  # single_type is set.
  def expression(index, stop: [], single_type: false)
    depth = 0
    first = nil
    last = nil
    while index < @tokens.length
      type, offset, length = @tokens[index]
      break if depth.zero? && stop.include?(type)
      break if single_type && depth.zero? && !first.nil? && type != :LBRACK

      first ||= offset
      depth += 1 if OPENERS.include?(type)
      depth -= 1 if CLOSERS.include?(type)
      last = offset + length
      index += 1
    end
    first.nil? ? nil : [first, last]
  end
end

def cut(pos, range)
  range.nil? ? nil : pos.text(range[0], range[1] - range[0])
end

def tree_start(expr)
  first = expr.offset
  expr._pcore_all_contents([]) do |m|
    first = m.offset if m.is_a?(M::Positioned) && m.offset < first
  end
  first
end

def parameter(pos, tokens, param)
  var = tokens.at(param.offset)
  var += 1 while tokens[var] && tokens[var][0] != :VARIABLE
  type_text = nil
  unless param.type_expr.nil?
    from = tokens.at(tree_start(param.type_expr))
    upto = var - 1
    upto -= 1 if param.captures_rest && tokens[upto] && tokens[upto][0] == :TIMES
    type_text = cut(pos, [tokens[from][1], tokens[upto][1] + tokens[upto][2]]) if upto >= from
  end
  default_text = nil
  if !param.value.nil? && tokens[var + 1] && tokens[var + 1][0] == :EQUALS
    default_text = cut(pos, tokens.expression(var + 2, stop: %i[COMMA RPAREN]))
  end
  var_token = tokens[var]
  { 'name' => param.name, 'span' => pos.span(var_token[1], var_token[2]),
    'type_text' => type_text, 'default_text' => default_text,
    'default_class' => model_class(param.value), 'captures_rest' => param.captures_rest ? true : false }
end

def definition(pos, tokens, defn)
  kind = case defn
         when M::HostClassDefinition then 'class'
         when M::ResourceTypeDefinition then 'define'
         when M::PlanDefinition then 'plan'
         when M::FunctionDefinition then 'function'
         when M::TypeAlias then 'type alias'
         else return nil
         end
  at = tokens.at(defn.offset)
  at += 1 unless defn.is_a?(M::TypeAlias) # the keyword
  name = tokens[at]
  alias_text = nil
  if defn.is_a?(M::TypeAlias) && tokens[at + 1] && tokens[at + 1][0] == :EQUALS
    alias_text = cut(pos, tokens.expression(at + 2, single_type: true))
  end
  params = (defn.respond_to?(:parameters) ? defn.parameters : []).map do |p|
    parameter(pos, tokens, p)
  end
  { 'kind' => kind, 'name' => defn.name, 'span' => pos.span(name[1], name[2]),
    'parent' => defn.is_a?(M::HostClassDefinition) ? defn.parent_class : nil,
    'alias_text' => alias_text, 'params' => params }
end

def functor_name(expr)
  f = expr.functor_expr
  if expr.is_a?(M::CallMethodExpression)
    return nil unless f.is_a?(M::NamedAccessExpression) && f.right_expr.is_a?(M::QualifiedName)

    return f.right_expr.value
  end
  f.is_a?(M::QualifiedName) ? f.value : nil
end

def call_arguments(expr)
  return expr.arguments unless expr.is_a?(M::CallMethodExpression)

  [expr.functor_expr.left_expr] + expr.arguments
end

# A quoted string's content (without its quotes): what a rename edits.
def text_span(pos, expr)
  return nil unless expr.is_a?(M::LiteralString) && expr.length >= 2

  quote = pos.text(expr.offset, 1)
  return nil unless ["'", '"'].include?(quote)

  pos.span(expr.offset + 1, expr.length - 2)
end

# The string an argument is before anything runs: a quoted string without interpolation, or a
# bare word (Puppet evaluates `lookup(a::b)`'s QualifiedName to the string 'a::b').
def literal_string(expr)
  case expr
  when M::LiteralString, M::QualifiedName then expr.value
  when M::ConcatenatedString
    return nil unless expr.segments.all? { |s| s.is_a?(M::LiteralString) }

    expr.segments.map(&:value).join
  end
end

# The keys a lookup reads, as its first argument names them: a string, each string of an
# array (Puppet tries them in turn), or lookup's options hash's 'name'.  Yields key (nil when
# only known at run time), the expression naming it, and the form.
def lookup_names(function, expr, form, &block)
  key = literal_string(expr)
  return yield(key, expr, form) unless key.nil?

  if expr.is_a?(M::LiteralList) && form == 'name'
    expr.values.each { |v| lookup_names(function, v, 'array', &block) }
    return
  end
  if expr.is_a?(M::LiteralHash) && function == 'lookup' && form == 'name'
    entry = expr.entries.find { |en| literal_string(en.key) == 'name' }
    return lookup_names(function, entry.value, 'options hash', &block) unless entry.nil?
  end
  yield(nil, expr, form)
end

# Class names an include-like argument names: bare words, strings, lists, Class['x'].
def class_names(expr, &block)
  case expr
  when M::QualifiedName, M::LiteralString then yield(expr.value, expr)
  when M::LiteralList then expr.values.each { |v| class_names(v, &block) }
  when M::AccessExpression
    left = expr.left_expr
    if left.is_a?(M::QualifiedReference) && left.value.casecmp?('class')
      expr.keys.each { |k| class_names(k, &block) }
    end
  else
    s = literal_string(expr)
    yield(s, expr) unless s.nil?
  end
end

def walk(pos, model)
  lookups = []
  inclusions = []
  model._pcore_all_contents([]) do |e|
    case e
    when M::CallNamedFunctionExpression, M::CallMethodExpression
      name = functor_name(e)
      args = call_arguments(e)
      style = e.is_a?(M::CallMethodExpression) ? 'method' : 'call'
      if LOOKUP_FUNCTIONS.include?(name) && !args.empty?
        call_start = pos.span(tree_start(e), 0)[0, 2]
        lookup_names(name, args[0], 'name') do |key, at, form|
          lookups << { 'function' => name, 'key' => key, 'form' => form,
                       'span' => pos.span(at.offset, at.length), 'text_span' => text_span(pos, at),
                       'call_span' => call_start, 'argument' => model_class(at), 'style' => style }
        end
      elsif INCLUDE_FUNCTIONS.include?(name)
        args.each do |a|
          class_names(a) do |n, at|
            inclusions << { 'name' => n, 'function' => name, 'style' => style,
                            'span' => pos.span(at.offset, at.length),
                            'text_span' => text_span(pos, at) }
          end
        end
      end
    when M::ResourceExpression
      next unless e.type_name.is_a?(M::QualifiedName) && e.type_name.value == 'class'

      e.bodies.each do |body|
        class_names(body.title) do |n, at|
          inclusions << { 'name' => n, 'function' => 'class', 'style' => 'resource',
                          'span' => pos.span(at.offset, at.length),
                          'text_span' => text_span(pos, at) }
        end
      end
    end
  end
  [lookups, inclusions]
end

def validation_messages(model)
  acceptor = Puppet::Pops::Validation::Acceptor.new
  Puppet::Pops::Validation::ValidatorFactory_4_0.new.validator(acceptor).validate(model)
  acceptor.errors.map { |d| Puppet::Pops::Validation::DiagnosticFormatterPuppetStyle.new.format(d) }
rescue StandardError => e
  ["validator failed: #{e.class}: #{e.message}"]
end

# Plans (a module's plans/ directory) are read in tasks mode, where 'plan' is a keyword, as
# Bolt reads them; everything else as the compiler does.
def answer(path)
  Puppet[:tasks] = path.include?('/plans/')
  epp = path.end_with?('.epp')
  parser = epp ? Puppet::Pops::Parser::EppParser.new : Puppet::Pops::Parser::Parser.new
  model = parser.parse_file(path).model
  pos = Positions.new(model.locator)
  definitions = []
  unless epp # a template declares nothing: its parameters are the template's own
    tokens = Tokens.new(path)
    definitions = model.definitions.map { |d| definition(pos, tokens, d) }.compact
  end
  lookups, inclusions = walk(pos, model)
  { 'path' => path, 'ok' => true, 'validation' => validation_messages(model),
    'definitions' => definitions, 'lookups' => lookups, 'inclusions' => inclusions }
rescue Puppet::ParseError, Puppet::ParseErrorWithIssue => e
  { 'path' => path, 'ok' => false, 'error' => (e.respond_to?(:basic_message) ? e.basic_message : e.message).to_s,
    'line' => e.line, 'col' => e.pos }
rescue StandardError, ScriptError => e
  { 'path' => path, 'ok' => false, 'error' => "#{e.class}: #{e.message}", 'line' => nil,
    'col' => nil }
end

ANSWERS.puts(JSON.generate({ 'ready' => true, 'puppet' => Puppet.version }))
paths = ARGV.empty? ? $stdin.each_line.lazy.map(&:chomp).reject(&:empty?) : ARGV
paths.each { |path| ANSWERS.puts(JSON.generate(answer(path))) }
