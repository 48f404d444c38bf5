import { Select } from './field.js';

/** Which board something ranks or pays on: wins or kills. */
export function BoardSelect({
  label,
  name,
  value,
  onValue,
}: {
  label: string;
  name: string;
  value: 'wins' | 'kills';
  onValue: (board: 'wins' | 'kills') => void;
}) {
  return (
    <Select
      label={label}
      name={name}
      value={value}
      options={[
        { value: 'wins', label: 'Wins' },
        { value: 'kills', label: 'Kills' },
      ]}
      onValue={(board) => onValue(board === 'kills' ? 'kills' : 'wins')}
    />
  );
}
