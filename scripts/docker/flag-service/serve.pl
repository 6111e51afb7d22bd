#!/usr/bin/perl
# The test challenge of per-team instances (issue 30): a TCP service that prints $FLAG to every
# connection, or with MODE=http answers any HTTP request with it. Perl's base modules only, so the
# image is the minimal Debian root (ctf-base:bookworm) plus this file: no registry, no apt.
use strict;
use warnings;
use IO::Socket::INET;

$SIG{CHLD} = 'IGNORE';    # forked handlers are reaped by the kernel
my $port = $ENV{PORT} || 1337;
my $flag = $ENV{FLAG} // 'no FLAG set';
my $http = ($ENV{MODE} // '') eq 'http';
my $server = IO::Socket::INET->new(LocalPort => $port, Listen => 64, ReuseAddr => 1, Proto => 'tcp')
  or die "listen on $port: $!\n";
while (1) {
  my $client = $server->accept() or next;
  my $pid = fork();
  if (defined $pid && $pid == 0) {
    $server->close();
    if ($http) {
      # Read the request head (bounded), then answer.
      my ($head, $line) = ('', '');
      while (defined($line = <$client>) && length($head) < 8192) {
        $head .= $line;
        last if $line eq "\r\n" || $line eq "\n";
      }
      my $body = "$flag\n";
      print $client "HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\nContent-Length: "
        . length($body) . "\r\nConnection: close\r\n\r\n$body";
    } else {
      print $client "$flag\n";
    }
    $client->close();
    exit 0;
  }
  $client->close();
}
