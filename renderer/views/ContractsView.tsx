import { Stack, Tabs, Title } from '@mantine/core';
import { useState } from 'react';
import { ScryptTab } from './contracts/ScryptTab.js';
import { SolidityTab } from './contracts/SolidityTab.js';
import { SCRYPT_SAMPLE, type SourceLanguage } from './contracts/samples.js';

/** The offline contract tools: the sCrypt compiler (sCrypt or scrypt-ts), and the Solidity transpiler whose output it compiles. */
export function ContractsView() {
  const [tab, setTab] = useState<string | null>('scrypt');
  const [file, setFile] = useState('P2PKH.scrypt');
  const [source, setSource] = useState(SCRYPT_SAMPLE);
  const [language, setLanguage] = useState<SourceLanguage>('scrypt');

  return (
    <Stack>
      <Title order={2}>Contracts</Title>
      <Tabs value={tab} onChange={setTab}>
        <Tabs.List>
          <Tabs.Tab value="scrypt">sCrypt</Tabs.Tab>
          <Tabs.Tab value="solidity">Solidity</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="scrypt" pt="md">
          <ScryptTab file={file} setFile={setFile} source={source} setSource={setSource} language={language} setLanguage={setLanguage} />
        </Tabs.Panel>
        <Tabs.Panel value="solidity" pt="md">
          <SolidityTab
            openInScrypt={(f, s) => {
              setFile(f);
              setSource(s);
              setLanguage('scrypt');
              setTab('scrypt');
            }}
          />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
