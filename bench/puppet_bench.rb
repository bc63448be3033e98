# Times Puppet's own Hiera engine in one warm Ruby process (the peer for bench_lookup.py).
# Usage: ruby bench/puppet_bench.rb ENVPATH ENV NODE FACTS.json KEYS.json ROUNDS
# Prints JSON: {"per_lookup_s": [...]} for every lookup of every round after a warm-up.
require 'json'
require 'puppet'

envpath, env_name, node_name, facts_path, keys_path, rounds = ARGV
Puppet.initialize_settings(['--confdir', Dir.mktmpdir, '--vardir', Dir.mktmpdir])
empty = Dir.mktmpdir
Puppet[:hiera_config] = File.join(empty, 'hiera.yaml')
Puppet[:strict] = :error
Puppet[:strict_variables] = true
# the lookups alone: the environment's manifest (which declares classes) is not evaluated
Puppet[:code] = '# hiera-ls bench: no manifest'
facts_in = JSON.parse(File.read(facts_path))
keys = JSON.parse(File.read(keys_path))
loader = Puppet::Environments::Directories.new(envpath, [])
times = []
Puppet.override({ environments: loader }, 'bench') do
  env = loader.get(env_name)
  Puppet.override({ current_environment: env }, 'bench env') do
    facts = Puppet::Node::Facts.new(node_name, {})
    facts.add_extra_values(facts_in)
    node = Puppet::Node.new(node_name, environment: env)
    node.fact_merge(facts)
    compiler = Puppet::Parser::Compiler.new(node)
    compiler.compile do |catalog|
      scope = compiler.topscope
      run = lambda do |key|
        inv = Puppet::Pops::Lookup::Invocation.new(scope, {}, {}, nil)
        t0 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
        begin
          Puppet::Pops::Lookup.lookup(key, nil, nil, true, nil, inv)
        rescue StandardError
          nil
        end
        Process.clock_gettime(Process::CLOCK_MONOTONIC) - t0
      end
      keys.each { |k| run.call(k) } # warm-up: files read and parsed once
      rounds.to_i.times { keys.each { |k| times << run.call(k) } }
      catalog
    end
  end
end
puts JSON.generate({ 'per_lookup_s' => times, 'puppet' => Puppet.version })
