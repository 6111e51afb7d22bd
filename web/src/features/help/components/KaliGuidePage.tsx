import { KALI_REQUIREMENTS as R } from '@ctf/contract';
import { Container, Table } from 'react-bootstrap';
import { Link } from 'react-router';

/** /kali-setup-guide: a static guide to a Kali Linux virtual machine (docs/product.md §2, §9). */
export function KaliGuidePage() {
  return (
    <Container className="py-4">
      <h1>Setting up a Kali Linux virtual machine</h1>
      <p>
        Kali Linux is a Linux distribution made for security work: it ships with the tools most CTF challenges
        need. Running it in a virtual machine (VM) keeps it separate from your own system.
      </p>
      <h2 className="h4">What you need</h2>
      <div className="table-scroll">
        <Table bordered size="sm" className="w-auto">
          <tbody>
            <tr>
              <th scope="row">Memory (RAM)</th>
              <td>
                {R.ramMinimumGb} GB minimum ({R.ramRecommendedGb} GB recommended)
              </td>
            </tr>
            <tr>
              <th scope="row">Disk space</th>
              <td>{R.diskGb} GB free</td>
            </tr>
            <tr>
              <th scope="row">Processor</th>
              <td>{R.cpuCores} CPU cores, with virtualisation (VT-x / AMD-V) enabled in the BIOS</td>
            </tr>
            <tr>
              <th scope="row">Video memory</th>
              <td>{R.videoMemoryMb} MB</td>
            </tr>
          </tbody>
        </Table>
      </div>
      <h2 className="h4">Steps</h2>
      <ol>
        <li>
          Install a hypervisor: <strong>VirtualBox</strong> (free, Windows, macOS on Intel, Linux) or{' '}
          <strong>VMware Workstation Player / Fusion</strong>. On Apple silicon Macs use UTM or VMware Fusion
          with the ARM64 image.
        </li>
        <li>
          Download the <strong>pre-built virtual machine image</strong> for your hypervisor from the official
          Kali Linux download page (kali.org, &ldquo;Virtual Machines&rdquo;). Check the SHA256 sum shown
          there.
        </li>
        <li>
          Extract the archive (it is 7z-compressed) and open the <code>.vbox</code> or <code>.vmx</code> file.
        </li>
        <li>
          Before the first boot, give the VM at least {R.ramMinimumGb} GB of RAM, {R.cpuCores} cores and{' '}
          {R.videoMemoryMb} MB of video memory in its settings.
        </li>
        <li>
          Start the VM and log in with the default user <code>kali</code> / password <code>kali</code>, then
          change the password with <code>passwd</code>.
        </li>
        <li>
          Update the system: <code>sudo apt update &amp;&amp; sudo apt full-upgrade -y</code>.
        </li>
        <li>
          Install the guest additions / VMware tools if asked, for clipboard sharing and screen resizing.
        </li>
        <li>Take a snapshot, so you can roll back if something breaks during the event.</li>
      </ol>
      <h2 className="h4">Tools you will use</h2>
      <ul>
        <li>
          <code>nc</code> (netcat) for remote challenges: see{' '}
          <Link to="/challenge_help">connecting to challenges</Link>.
        </li>
        <li>Burp Suite and the browser developer tools for web exploitation.</li>
        <li>Ghidra, gdb and strings for reverse engineering and binary exploitation.</li>
        <li>binwalk, exiftool, steghide and Wireshark for forensics and steganography.</li>
        <li>CyberChef and Python for cryptography.</li>
      </ul>
    </Container>
  );
}
