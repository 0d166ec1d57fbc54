'use client';
// A button that picks one JSON file and hands over its text. Files over
// `maxBytes` are refused before they are read (an import is attacker-supplied
// and could be any size); the input is emptied so the same file can be picked again.
export function ImportFileButton({
  label,
  testId,
  maxBytes,
  onText,
  onRefused,
}: {
  label: string;
  testId: string;
  maxBytes: number;
  onText: (name: string, text: string) => void;
  onRefused: (message: string) => void;
}) {
  return (
    <label className="button">
      {label}
      <input
        type="file"
        accept="application/json,.json"
        hidden
        data-testid={testId}
        onChange={async (e) => {
          const input = e.currentTarget;
          const file = input.files?.[0];
          input.value = '';
          if (!file) return;
          if (file.size > maxBytes) return onRefused(`${file.name}: larger than ${maxBytes >> 20} MiB; nothing was imported.`);
          try {
            onText(file.name, await file.text());
          } catch {
            onRefused(`${file.name} could not be read; nothing was imported.`);
          }
        }}
      />
    </label>
  );
}
