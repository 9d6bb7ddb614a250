// SPDX-License-Identifier: MIT
// Test only: an ERC-1271 wallet that answers 0xffffffff to every signature — a non-zero answer
// that is not the magic value, and so must never count as valid. Never deployed outside tests.
pragma solidity 0.8.28;

contract RefusingWallet {
    function isValidSignature(bytes32, bytes calldata) external pure returns (bytes4) {
        return 0xffffffff;
    }
}
